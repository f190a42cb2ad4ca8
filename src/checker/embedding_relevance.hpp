/// @brief Relevance from embeddings: the best cosine of the query with the chunks' vectors.
#pragma once

#include <cstddef>

namespace sc::checker {

/// max_i cosine(query, rows[i]) over n rows of dimension d (n >= 1), in double precision with the
/// reference formula's arithmetic: dot / (|q| |row|) summed in index order, 0 for a zero vector.
/// Throws std::invalid_argument naming `query_embedding` or `chunk_embeddings[i, j]` for NaN or
/// inf.
double max_cosine_reference(const double* query, const double* rows, std::size_t n, std::size_t d);

/// max_i cosine(query, rows[i]) computed by the SIMD similarity engine on float32 copies (error
/// within 1e-5 of float64). Same validation as max_cosine_reference.
double max_cosine_engine(const double* query, const double* rows, std::size_t n, std::size_t d);

}  // namespace sc::checker
