#include "checker/word_relations.hpp"

#include <stdexcept>
#include <string>

#include "common/no_destructor.hpp"
#include "common/quoted.hpp"
#include "common/tsv_lines.hpp"

namespace sc::checker {
namespace {

// Appends (id, hash) pairs (WordRelations::Links).
void add_words(std::string_view list, text::TermInterner& words, std::vector<std::uint32_t>& out) {
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t end = list.find(' ', pos);
    if (end == std::string_view::npos) end = list.size();
    if (end > pos) {
      const std::string_view word = list.substr(pos, end - pos);
      out.push_back(words.intern(word));
      out.push_back(static_cast<std::uint32_t>(text::hash_term(word)));
    }
    pos = end + 1;
  }
}

}  // namespace

WordRelations WordRelations::from_tsv(std::string_view tsv) {
  WordRelations relations;
  for_each_tsv_line(tsv, [&](std::size_t line_no, std::string_view line) {
    const std::size_t tab1 = line.find('\t');
    const std::size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab1 == 0 || tab2 == std::string_view::npos ||
        line.find('\t', tab2 + 1) != std::string_view::npos) {
      throw std::invalid_argument("word relations line " + std::to_string(line_no) +
                                  ": expected 'stem<TAB>related<TAB>antonyms'; got " +
                                  quoted(line));
    }
    const std::uint32_t key = relations.keys_.intern(line.substr(0, tab1));
    if (key == relations.entries_.size()) relations.entries_.emplace_back();
    Entry& entry = relations.entries_[key];
    add_words(line.substr(tab1 + 1, tab2 - tab1 - 1), relations.words_, entry.related);
    add_words(line.substr(tab2 + 1), relations.words_, entry.antonyms);
  });
  return relations;
}

const std::shared_ptr<const WordRelations>& WordRelations::english() {
  static const NoDestructor<std::shared_ptr<const WordRelations>> table(
      std::make_shared<const WordRelations>(Compiled{}, english_relations()));
  return *table;
}

WordRelations::Links WordRelations::links(std::string_view term, bool antonyms) const noexcept {
  if (static_ != nullptr) {
    const auto key = static_->keys.find(term);
    if (!key) return {};
    const std::uint32_t* bounds = static_->bounds + 2 * std::size_t{*key} + (antonyms ? 1 : 0);
    return {static_->links + 2 * std::size_t{bounds[0]}, std::size_t{bounds[1] - bounds[0]}};
  }
  const auto key = keys_.find(term);
  if (!key) return {};
  const std::vector<std::uint32_t>& pairs =
      antonyms ? entries_[*key].antonyms : entries_[*key].related;
  return {pairs.data(), pairs.size() / 2};
}

}  // namespace sc::checker
