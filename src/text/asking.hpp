/// @brief Words that open a question.
#pragma once

#include <string_view>

namespace sc::text {

/// Whether a sentence starting with this folded word can be a question: a wh-word or an
/// auxiliary ("what", "is", "doesn't"...). A question asserts nothing: default sufficiency
/// scoring does not take one for the sentence that answers the query, and a claim is not
/// supported by a question alone (scoring.md, sections 3.4 and 5.3).
bool asks(std::string_view folded) noexcept;

}  // namespace sc::text
