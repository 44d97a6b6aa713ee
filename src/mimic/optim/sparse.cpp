#include "mimic/optim/sparse.hpp"

#include <stdexcept>
#include <string>

namespace mimic::optim {

SparseMatrix PatternBuilder::build() const {
  for (const auto& e : entries_) {
    if (e.row() < 0 || e.row() >= rows_ || e.col() < 0 || e.col() >= cols_) {
      throw std::out_of_range("PatternBuilder: entry (" + std::to_string(e.row()) + ", " +
                              std::to_string(e.col()) + ") outside " + std::to_string(rows_) + " x " +
                              std::to_string(cols_));
    }
  }
  SparseMatrix m(rows_, cols_);
  m.setFromTriplets(entries_.begin(), entries_.end());  // sums duplicates, keeps explicit zeros
  m.makeCompressed();
  return m;
}

}  // namespace mimic::optim
