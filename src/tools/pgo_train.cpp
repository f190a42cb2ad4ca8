// The training run of profile-guided Release builds (cmake/pgo.cmake): the instrumented core checks
// questions and answers made from the repository's own prose (the files named on the command
// line: its Markdown documentation), so the compiler learns which branches real English text
// takes. Nothing here fits a benchmark: the documentation shares no text with the datasets the
// benchmarks read, and a check's result is never looked at.
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "checker/checker.hpp"
#include "claims/answer_coverage.hpp"
#include "text/sentences.hpp"

namespace {

using sc::claims::ChunkInput;

std::vector<std::string> paragraphs_of(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  for (const std::string& path : files) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t begin = 0;
    while (begin < text.size()) {
      std::size_t end = text.find("\n\n", begin);
      if (end == std::string::npos) end = text.size();
      if (end - begin >= 80) out.push_back(text.substr(begin, end - begin));
      begin = end + 2;
    }
  }
  return out;
}

/// A sentence with every third word left out, and one with its digits changed: what a generator
/// paraphrases or gets wrong.
std::string thinned(std::string_view sentence) {
  std::string out;
  std::size_t word = 0;
  bool skipping = false;
  for (std::size_t i = 0; i < sentence.size(); ++i) {
    if (i == 0 || (sentence[i - 1] == ' ' && sentence[i] != ' ')) skipping = ++word % 3 == 0;
    if (!skipping) out.push_back(sentence[i]);
  }
  return out;
}

std::string renumbered(std::string_view sentence) {
  std::string out(sentence);
  for (char& c : out) {
    if (c >= '0' && c <= '8') ++c;
  }
  return out + " in 1987";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files(argv + 1, argv + argc);
  const std::vector<std::string> paragraphs = paragraphs_of(files);
  if (paragraphs.size() < 4) {
    std::fprintf(stderr, "pgo_train: too little text in the files named\n");
    return 1;
  }
  const sc::checker::SufficiencyChecker checker(sc::checker::CheckerConfig{},
                                                sc::checker::TermStatistics::english(),
                                                sc::checker::WordRelations::english());
  sc::claims::ClaimOptions reference_options;
  reference_options.mode = sc::claims::Mode::Reference;
  const sc::claims::ClaimConfig claims({}, sc::checker::TermStatistics::english(),
                                       sc::checker::WordRelations::english());
  const sc::claims::ClaimConfig reference(reference_options, sc::checker::TermStatistics::english(),
                                          sc::checker::WordRelations::english());
  const std::size_t n = paragraphs.size();
  const auto train = [&](std::size_t i) {
    const std::string& own = paragraphs[i];
    const std::string& near = paragraphs[(i + 7) % n];
    const std::string& far = paragraphs[(i + 29) % n];
    const std::vector<sc::text::Span> spans = sc::text::split_sentences(own);
    if (spans.empty()) return;
    const auto sentence = [&](std::size_t k) {
      const sc::text::Span& s = spans[k % spans.size()];
      std::string_view text(own);
      text = text.substr(s.begin, s.end - s.begin);
      while (!text.empty() && (text.back() == '.' || text.back() == ' ')) text.remove_suffix(1);
      return std::string(text);
    };
    const std::string first = sentence(0);
    const std::string query = "What does " + thinned(first) + " mean?";
    sc::checker::CheckInput input;
    input.query = query;
    input.contents = {own, near, far};
    static_cast<void>(checker.check(input));

    std::vector<ChunkInput> chunks = {{"S1", own}};
    if (i % 3 > 0) chunks.push_back({"S2", near});
    if (i % 3 > 1) chunks.push_back({"S3", far});
    std::string answer = first + " [S1].";
    if (i % 2 == 0) answer += " " + thinned(sentence(1)) + " [S1].";
    if (i % 4 == 1) answer += " " + renumbered(sentence(2)) + " [S1].";
    if (i % 5 == 2) answer = "Based on the documents, " + answer + " " + sentence(3) + ".";
    if (i % 7 == 3) answer += " It never does that [S2].";
    // Every reason is worded, as the bindings do when a result's claims are read.
    const sc::claims::AnswerResult result = sc::claims::check_answer(claims, answer, chunks);
    for (const sc::claims::ClaimResult& r : result.claims) {
      static_cast<void>(sc::claims::reason_text(r, chunks));
    }
    if (i % 8 == 0) static_cast<void>(sc::claims::check_answer(reference, answer, chunks));
    if (i % 16 == 0 && i + 10 <= n) {  // ten sentences over ten chunks, each citing its own
      std::vector<ChunkInput> ten;
      std::string long_answer;
      std::vector<std::string> ids(10);
      for (std::size_t k = 0; k < 10; ++k) {
        ids[k] = "S" + std::to_string(k + 1);
        ten.push_back({ids[k], paragraphs[i + k]});
        const std::vector<sc::text::Span> s = sc::text::split_sentences(paragraphs[i + k]);
        if (!s.empty()) {
          long_answer +=
              paragraphs[i + k].substr(s[0].begin, s[0].end - s[0].begin) + " [" + ids[k] + "]. ";
        }
      }
      static_cast<void>(sc::claims::check_answer(claims, long_answer, ten));
    }
  };
  // Blocks of paragraphs, each on a thread of its own: a thread's word memos start empty, so words
  // new to the thread are about as frequent as in a fresh process, and the block's later
  // paragraphs meet words it has seen.
  constexpr std::size_t kBlock = 100;
  for (std::size_t begin = 0; begin < n; begin += kBlock) {
    std::thread worker([&, begin] {
      for (std::size_t i = begin; i < n && i < begin + kBlock; ++i) train(i);
    });
    worker.join();
  }
  return 0;
}
