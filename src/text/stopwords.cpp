#include "text/stopwords.hpp"

#include <algorithm>
#include <array>

#include "common/no_destructor.hpp"
#include "text/casefold.hpp"
#include "text/utf8.hpp"

namespace sc::text {
namespace {

// NLTK's English stop words (nltk.corpus.stopwords.words("english"), 179 words).
constexpr std::string_view kEnglish[] = {
    "i",         "me",        "my",         "myself",   "we",      "our",     "ours",
    "ourselves", "you",       "you're",     "you've",   "you'll",  "you'd",   "your",
    "yours",     "yourself",  "yourselves", "he",       "him",     "his",     "himself",
    "she",       "she's",     "her",        "hers",     "herself", "it",      "it's",
    "its",       "itself",    "they",       "them",     "their",   "theirs",  "themselves",
    "what",      "which",     "who",        "whom",     "this",    "that",    "that'll",
    "these",     "those",     "am",         "is",       "are",     "was",     "were",
    "be",        "been",      "being",      "have",     "has",     "had",     "having",
    "do",        "does",      "did",        "doing",    "a",       "an",      "the",
    "and",       "but",       "if",         "or",       "because", "as",      "until",
    "while",     "of",        "at",         "by",       "for",     "with",    "about",
    "against",   "between",   "into",       "through",  "during",  "before",  "after",
    "above",     "below",     "to",         "from",     "up",      "down",    "in",
    "out",       "on",        "off",        "over",     "under",   "again",   "further",
    "then",      "once",      "here",       "there",    "when",    "where",   "why",
    "how",       "all",       "any",        "both",     "each",    "few",     "more",
    "most",      "other",     "some",       "such",     "no",      "nor",     "not",
    "only",      "own",       "same",       "so",       "than",    "too",     "very",
    "s",         "t",         "can",        "will",     "just",    "don",     "don't",
    "should",    "should've", "now",        "d",        "ll",      "m",       "o",
    "re",        "ve",        "y",          "ain",      "aren",    "aren't",  "couldn",
    "couldn't",  "didn",      "didn't",     "doesn",    "doesn't", "hadn",    "hadn't",
    "hasn",      "hasn't",    "haven",      "haven't",  "isn",     "isn't",   "ma",
    "mightn",    "mightn't",  "mustn",      "mustn't",  "needn",   "needn't", "shan",
    "shan't",    "shouldn",   "shouldn't",  "wasn",     "wasn't",  "weren",   "weren't",
    "won",       "won't",     "wouldn",     "wouldn't",
};

// A fixed buffer with the push_back that append_utf8 needs; remembers overflow instead of growing.
class StackBuffer {
 public:
  void push_back(char c) noexcept {
    if (size_ < data_.size()) {
      data_[size_] = c;
    }
    ++size_;
  }
  bool overflowed() const noexcept { return size_ > data_.size(); }
  std::size_t size() const noexcept { return size_; }
  std::string_view view() const noexcept { return std::string_view(data_.data(), size_); }

 private:
  std::array<char, 128> data_{};
  std::size_t size_ = 0;
};

constexpr std::size_t kStackLimit = 128;

}  // namespace

StopWords::StopWords(const std::vector<std::string>& words) {
  for (const std::string& word : words) add(word);
}

StopWords::StopWords(const std::vector<std::string_view>& words) {
  for (const std::string_view word : words) add(word);
}

StopWords::StopWords(std::initializer_list<std::string_view> words) {
  for (const std::string_view word : words) add(word);
}

const StopWords& StopWords::english() {
  static const NoDestructor<StopWords> instance(
      std::vector<std::string_view>(std::begin(kEnglish), std::end(kEnglish)));
  return *instance;
}

void StopWords::add(std::string_view word) {
  if (word.empty()) return;
  const std::string folded = fold(word);
  words_.intern(folded);
  max_length_ = std::max(max_length_, folded.size());
  if (folded.empty()) return;
  const std::size_t bit = filter_bit(folded);
  filter_[bit / 64] |= std::uint64_t{1} << (bit % 64);
}

bool StopWords::contains(std::string_view word) const {
  if (words_.empty()) return false;
  if (max_length_ >= kStackLimit) return contains_folded(fold(word));
  StackBuffer buffer;
  std::size_t pos = 0;
  while (pos < word.size()) {
    const CodePoint cp = decode_utf8(word, pos);
    append_utf8(cp.valid ? fold_code_point(cp.value) : kReplacementChar, buffer);
    if (buffer.size() > max_length_) return false;  // longer than every stop word
    pos += cp.length;
  }
  return !buffer.overflowed() && contains_folded(buffer.view());
}

std::vector<std::string_view> StopWords::words() const {
  std::vector<std::string_view> sorted(words_.terms().begin(), words_.terms().end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace sc::text
