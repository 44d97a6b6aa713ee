// PatternBuilder lays out entries given in increasing (row, column) order directly, and sorts (summing
// duplicates) any other order: both give the same compressed pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mimic/optim/sparse.hpp"

namespace mo = mimic::optim;

namespace {

void expect_same_pattern(const mo::SparseMatrix& a, const mo::SparseMatrix& b) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  ASSERT_TRUE(a.isCompressed());
  ASSERT_TRUE(b.isCompressed());
  ASSERT_EQ(a.nonZeros(), b.nonZeros());
  EXPECT_TRUE(std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.rows() + 1, b.outerIndexPtr()));
  EXPECT_TRUE(std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr()));
  EXPECT_EQ(a.coeffs().cwiseAbs().sum() + b.coeffs().cwiseAbs().sum(), 0.0);
}

TEST(PatternBuilder, OrderedAndShuffledEntriesGiveTheSamePattern) {
  std::mt19937 rng(11);
  std::bernoulli_distribution keep(0.2);
  std::vector<std::pair<int, int>> entries;
  const int rows = 40, cols = 30;
  for (int r = 0; r < rows; ++r) {
    if (r == 7) continue;  // an empty row
    for (int c = 0; c < cols; ++c) {
      if (keep(rng)) entries.emplace_back(r, c);
    }
  }
  mo::PatternBuilder ordered(rows + 2, cols);  // two empty rows at the end too
  for (const auto& [r, c] : entries) ordered.add(r, c);
  auto shuffled_entries = entries;
  std::shuffle(shuffled_entries.begin(), shuffled_entries.end(), rng);
  shuffled_entries.push_back(entries.front());  // a duplicate
  mo::PatternBuilder shuffled(rows + 2, cols);
  for (const auto& [r, c] : shuffled_entries) shuffled.add(r, c);
  const mo::SparseMatrix a = ordered.build(), b = shuffled.build();
  expect_same_pattern(a, b);
  EXPECT_EQ(a.nonZeros(), static_cast<Eigen::Index>(entries.size()));
  EXPECT_EQ(a.outerIndexPtr()[8] - a.outerIndexPtr()[7], 0);
}

TEST(PatternBuilder, EntryOutsideIsAnError) {
  mo::PatternBuilder b(2, 2);
  b.add(0, 0);
  b.add(1, 2);
  EXPECT_THROW(b.build(), std::out_of_range);
}

}  // namespace

// add_transposed_product skips the rows whose factor is zero but otherwise adds what Eigen's transposed
// product adds, in the same order: the results are bitwise equal.
TEST(AddTransposedProduct, EqualsEigensProductBitwise) {
  std::mt19937 rng(5);
  std::bernoulli_distribution keep(0.3), active(0.2);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  mo::PatternBuilder b(60, 25);
  for (int r = 0; r < 60; ++r) {
    for (int c = 0; c < 25; ++c) {
      if (keep(rng)) b.add(r, c);
    }
  }
  mo::SparseMatrix m = b.build();
  for (double& v : m.coeffs()) v = value(rng);
  Eigen::VectorXd factors(60), start(25);
  for (double& v : factors) v = active(rng) ? value(rng) : 0.0;
  for (double& v : start) v = value(rng);
  Eigen::VectorXd expected = start;
  expected.noalias() += m.transpose() * factors;
  Eigen::VectorXd out = start;
  mo::add_transposed_product(m, factors, out);
  for (int i = 0; i < 25; ++i) EXPECT_EQ(out[i], expected[i]) << i;
}
