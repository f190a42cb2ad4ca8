/// @brief WordRelations: related words and antonyms by stem (data/english_relations.tsv).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "checker/english_tables.hpp"
#include "text/interner.hpp"

namespace sc::checker {

/// Which terms (Porter2 stems, as the checker makes them) are related to a term (synonyms and
/// derivations: credited like a spelling variant in default coverage) and which are its antonyms
/// (a contradiction when the evidence holds one and never the query's term). Immutable once
/// built: one object serves every checker and thread of a process.
class WordRelations {
  struct Compiled {};  // a pass key: only english() builds relations over compiled-in arrays

 public:
  /// The terms a lookup returns: ids into words() (what iteration yields), each with the low half
  /// of its word's text::hash_term(), so a caller can look the word up elsewhere without reading
  /// its bytes. Stored as (id, hash) pairs: a list's hashes share its ids' cache lines.
  struct Links {
    class Ids {
     public:
      explicit Ids(const std::uint32_t* at) noexcept : at_(at) {}
      std::uint32_t operator*() const noexcept { return *at_; }
      Ids& operator++() noexcept {
        at_ += 2;
        return *this;
      }
      bool operator==(const Ids& other) const noexcept { return at_ == other.at_; }
      bool operator!=(const Ids& other) const noexcept { return at_ != other.at_; }

     private:
      const std::uint32_t* at_;
    };

    const std::uint32_t* pairs_ = nullptr;
    std::size_t size_ = 0;
    Ids begin() const noexcept { return Ids(pairs_); }
    Ids end() const noexcept { return Ids(pairs_ + 2 * size_); }
    bool empty() const noexcept { return size_ == 0; }
    std::size_t size() const noexcept { return size_; }
    std::uint32_t id(std::size_t k) const noexcept { return pairs_[2 * k]; }
    std::uint32_t hash(std::size_t k) const noexcept { return pairs_[2 * k + 1]; }
  };

  /// No relations.
  WordRelations() = default;
  WordRelations(Compiled /*key*/, const EnglishRelations& table) noexcept : static_(&table) {}

  /// Parses `stem<TAB>related<TAB>antonyms` lines, the lists space-separated and either may be
  /// empty. Blank lines and lines starting with '#' are skipped; a repeated stem adds to its lists.
  /// Throws std::invalid_argument naming the line when it does not have exactly three fields or
  /// its stem is empty.
  static WordRelations from_tsv(std::string_view tsv);

  /// The packaged English relations (data/english_relations.tsv), compiled in at build time from
  /// that file by the same parser as from_tsv: equal to from_tsv(<the file>), built in no time
  /// and shared by the whole process.
  static const std::shared_ptr<const WordRelations>& english();

  Links related(std::string_view term) const noexcept { return links(term, false); }
  Links antonyms(std::string_view term) const noexcept { return links(term, true); }

  /// The term of an id from related() or antonyms().
  std::string_view word(std::uint32_t id) const {
    return static_ != nullptr ? static_->words.at(id) : words_.term(id);
  }
  /// How many distinct terms the lists name (ids 0..word_count()-1).
  std::size_t word_count() const noexcept {
    return static_ != nullptr ? static_->words.count : words_.size();
  }

  /// Stems with at least one relation.
  std::size_t size() const noexcept {
    return static_ != nullptr ? static_->keys.count : entries_.size();
  }
  /// The stem of index `i` < size(), in first-seen order.
  std::string_view key(std::uint32_t i) const {
    return static_ != nullptr ? static_->keys.at(i) : keys_.term(i);
  }

 private:
  struct Entry {
    std::vector<std::uint32_t> related;  // (id, hash) pairs, as Links
    std::vector<std::uint32_t> antonyms;
  };
  Links links(std::string_view term, bool antonyms) const noexcept;

  const EnglishRelations* static_ = nullptr;  // the compiled-in table; else the three below
  text::TermInterner keys_;                   // stems with relations; id -> entries_
  text::TermInterner words_;                  // every stem named in a list
  std::vector<Entry> entries_;
};

}  // namespace sc::checker
