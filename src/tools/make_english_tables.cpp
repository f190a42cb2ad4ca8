// Build-time generator of the compiled-in English tables (checker/english_tables.hpp):
//   make_english_tables english_freq.tsv english_relations.tsv out.cpp [--no-seed]
// (--no-seed: an empty seed vocabulary; CMake passes it unless SC_ENGLISH_SEED=ON, because the
// seed measured no faster in fresh processes: benchmarks/README.md, "Cold start and first sight".)
// The TSVs stay the source of truth: they are parsed here by the core's own parsers, and the
// seed vocabulary is analysed by the core's own Vocabulary (linked without seeds), so the tables
// hold exactly what the library would compute at run time.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "checker/term_statistics.hpp"
#include "checker/vocabulary.hpp"
#include "checker/word_relations.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "tools/seed_builder.hpp"

namespace {

namespace ck = sc::checker;

// Which surface forms of a stem are seeded (measured on squad2 rows, benchmarks/README.md): the
// suffixes that most often give real words; lowercase forms of stems at least kMinZipf common,
// Titlecase forms (sentence starts, names) of stems at least kMinTitleZipf common.
constexpr std::string_view kSuffixes[] = {"",    "s",    "es", "e",   "d",   "ed",  "ing",
                                          "ion", "ions", "or", "ors", "ist", "ists"};
constexpr double kMinZipf = 4.5;
constexpr double kMinTitleZipf = 5.0;
constexpr int kMaxSeedNumber = 2100;  // counts and years

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Writes C++ array definitions.
class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) {}

  void bytes(const char* name, std::string_view data) {
    out_ << "const char " << name << "[] = {";
    for (std::size_t i = 0; i < data.size(); ++i) {
      out_ << (i % 24 == 0 ? "\n" : "") << static_cast<int>(static_cast<signed char>(data[i]))
           << ',';
    }
    out_ << "0};\n";
  }

  void u32(const char* name, const std::vector<std::uint32_t>& data) {
    out_ << "const std::uint32_t " << name << "[] = {";
    for (std::size_t i = 0; i < data.size(); ++i) {
      out_ << (i % 16 == 0 ? "\n" : "") << data[i] << "u,";
    }
    out_ << "0u};\n";
  }

  // `align`: the array's alignment in bytes (0: the type's own).
  void u64(const char* name, const std::vector<std::uint64_t>& data, std::size_t align = 0) {
    if (align != 0) out_ << "alignas(" << align << ") ";
    out_ << "const std::uint64_t " << name << "[] = {";
    for (std::size_t i = 0; i < data.size(); ++i) {
      out_ << (i % 8 == 0 ? "\n" : "") << data[i] << "u,";
    }
    out_ << "0u};\n";
  }

  void f64(const char* name, const std::vector<double>& data) {
    out_ << "const double " << name << "[] = {";
    char buf[64];
    for (std::size_t i = 0; i < data.size(); ++i) {
      std::snprintf(buf, sizeof(buf), "%a", data[i]);  // exact: hexadecimal float literal
      out_ << (i % 6 == 0 ? "\n" : "") << buf << ',';
    }
    out_ << "0.0};\n";
  }

  // A StaticStrings over `strings` (ids in order): arrays <name>_bytes, _offsets, _slots, and
  // returns the aggregate initializer.
  std::string strings(const std::string& name, const std::vector<std::string>& strings,
                      const std::vector<std::uint8_t>& payloads = {}, bool index = true) {
    return table(name, ck::OwnedStrings(strings, payloads, index));
  }

  std::string table(const std::string& name, const ck::OwnedStrings& table) {
    bytes((name + "_bytes").c_str(), table.bytes);
    u32((name + "_offsets").c_str(), table.offsets);
    // Line-aligned, so a 16-byte slot never straddles two cache lines.
    u64((name + "_slots").c_str(), table.slots, 64);
    return "{" + name + "_bytes, " + name + "_offsets, " + name + "_slots, " +
           std::to_string(table.count()) + "u, " + std::to_string(table.slot_count()) + "u}";
  }

 private:
  std::ostream& out_;
};

void write_frequencies(Writer& w, std::ostream& out, const ck::TermStatistics& stats) {
  std::vector<std::string> stems;
  std::vector<double> zipf;
  // Each stem's slot names its zipf among the distinct ones (the packaged file has ~50); past
  // kZipfById of them, the rest are read by id.
  std::vector<double> values;
  std::vector<std::uint8_t> codes;
  for (auto& [stem, z] : stats.items()) {
    stems.push_back(stem);
    zipf.push_back(z);
    std::size_t code = 0;
    // Bitwise equality: the code must give back exactly this double.
    while (code < values.size() && std::memcmp(&values[code], &z, sizeof z) != 0) ++code;
    if (code == values.size() && values.size() < ck::EnglishFrequencies::kZipfById) {
      values.push_back(z);
    }
    codes.push_back(
        static_cast<std::uint8_t>(code < values.size() ? code : ck::EnglishFrequencies::kZipfById));
  }
  const std::string table = w.strings("freq_stems", stems, codes);
  w.f64("freq_zipf", zipf);
  w.f64("freq_zipf_values", values);
  out << "constexpr EnglishFrequencies kFrequencies{" << table
      << ", freq_zipf, freq_zipf_values};\n\n";
}

void write_relations(Writer& w, std::ostream& out, const ck::WordRelations& relations) {
  std::vector<std::string> keys;
  std::vector<std::string> words;
  std::vector<std::uint32_t> bounds{0};
  std::vector<std::uint32_t> links;  // (id, hash) pairs, as WordRelations::Links
  const auto add = [&](const ck::WordRelations::Links& list) {
    for (std::size_t k = 0; k < list.size(); ++k) {
      links.push_back(list.id(k));
      links.push_back(list.hash(k));
    }
    bounds.push_back(static_cast<std::uint32_t>(links.size() / 2));
  };
  for (std::uint32_t k = 0; k < relations.size(); ++k) {
    const std::string_view key = relations.key(k);
    keys.emplace_back(key);
    add(relations.related(key));
    add(relations.antonyms(key));
  }
  for (std::uint32_t id = 0; id < relations.word_count(); ++id) {
    words.emplace_back(relations.word(id));
  }
  const std::string key_table = w.strings("rel_keys", keys);
  // Read by id only (WordRelations::word): no index.
  const std::string word_table = w.strings("rel_words", words, {}, /*index=*/false);
  w.u32("rel_bounds", bounds);
  w.u32("rel_links", links);
  out << "constexpr EnglishRelations kRelations{" << key_table << ", " << word_table
      << ", rel_bounds, rel_links};\n\n";
}

// The spellings to pre-analyse, most useful first: stop words, the stems' common surface forms,
// Titlecase forms of the commoner ones, small numbers.
std::vector<std::string> seed_spellings(const ck::TermStatistics& stats) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  const auto add = [&](const std::string& s) {
    if (!s.empty() && seen.insert(s).second) out.push_back(s);
  };
  const auto title = [](std::string s) {
    if (s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
  };
  for (const std::string_view word : sc::text::StopWords::english().words()) {
    add(std::string(word));
    add(title(std::string(word)));
  }
  std::vector<std::pair<std::string, double>> forms;
  std::string stem;
  for (const auto& [s, zipf] : stats.items()) {
    if (zipf < kMinZipf) continue;
    std::vector<std::string> candidates;
    for (const std::string_view suffix : kSuffixes) candidates.push_back(s + std::string(suffix));
    if (s.back() == 'i') candidates.push_back(s.substr(0, s.size() - 1) + "y");
    if (s.size() >= 3 && std::string_view("aeiouwxy").find(s.back()) == std::string_view::npos) {
      candidates.push_back(s + s.back());
    }
    for (const std::string& c : candidates) {
      sc::text::stem_into(c, stem);
      if (stem == s) forms.emplace_back(c, zipf);
    }
  }
  for (const auto& form : forms) add(form.first);
  for (const auto& [form, zipf] : forms) {
    if (zipf >= kMinTitleZipf) add(title(form));
  }
  for (int n = 0; n <= kMaxSeedNumber; ++n) add(std::to_string(n));
  return out;
}

void write_seed(Writer& w, std::ostream& out, const ck::TermStatistics& stats, bool seeded) {
  ck::SeedBuilder builder;
  if (seeded) {
    for (const std::string& spelling : seed_spellings(stats)) builder.add(spelling);
  }
  const ck::SeedBuilder::Seed seed = builder.build();
  std::ostringstream words;
  for (std::size_t i = 0; i < seed.words.size(); ++i) {
    const ck::SeedWord& s = seed.words[i];
    words << (i % 4 == 0 ? "\n" : "") << "{" << s.spelling << "u," << s.folded << "u," << s.term
          << "u," << s.prefix << "u," << unsigned{s.spelling_length} << ","
          << unsigned{s.folded_length} << "," << unsigned{s.term_length} << "," << unsigned{s.flags}
          << "},";
  }
  w.bytes("seed_bytes", seed.bytes);
  out << "const SeedWord seed_words[] = {" << words.str() << "\n{0u,0u,0u,0u,0,0,0,0}};\n";
  w.u64("seed_slots", seed.slots);
  const std::string terms = w.table("seed_terms", seed.terms);
  out << "constexpr SeedVocabulary kSeed{seed_bytes, seed_words, seed_slots, " << seed.words.size()
      << "u, " << seed.slots.size() << "u, " << terms << "};\n\n";
}

}  // namespace

int main(int argc, char** argv) {
  const bool seeded = argc == 4;
  if (argc != 4 && !(argc == 5 && std::string_view(argv[4]) == "--no-seed")) {
    std::cerr << "usage: make_english_tables english_freq.tsv english_relations.tsv out.cpp "
                 "[--no-seed]\n";
    return 2;
  }
  try {
    const ck::TermStatistics stats = ck::TermStatistics::from_tsv(read_file(argv[1]));
    const ck::WordRelations relations = ck::WordRelations::from_tsv(read_file(argv[2]));
    std::ostringstream out;
    out << "// Generated by src/tools/make_english_tables.cpp from " << argv[1] << " and "
        << argv[2] << ". Do not edit.\n"
        << "#include \"checker/english_tables.hpp\"\n\nnamespace sc::checker {\nnamespace {\n\n";
    Writer w(out);
    write_frequencies(w, out, stats);
    write_relations(w, out, relations);
    write_seed(w, out, stats, seeded);
    out << "}  // namespace\n\n"
        << "const SeedVocabulary& english_seed_vocabulary() noexcept { return kSeed; }\n"
        << "const EnglishFrequencies& english_frequencies() noexcept { return kFrequencies; }\n"
        << "const EnglishRelations& english_relations() noexcept { return kRelations; }\n\n"
        << "}  // namespace sc::checker\n";
    std::ofstream file(argv[3], std::ios::binary);
    file << out.str();
    if (!file.flush()) throw std::runtime_error(std::string("cannot write ") + argv[3]);
  } catch (const std::exception& e) {
    std::cerr << "make_english_tables: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
