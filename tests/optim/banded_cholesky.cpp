// The banded Cholesky (and the normal-equation solver choosing it) against Eigen's dense LLT: random
// symmetric positive definite band matrices of several sizes and bandwidths (block edges: n not a multiple
// of the block size, band 0, band >= n, band not a multiple of it), solves to 1e-11 relative (the matrices'
// condition numbers are < 1e3, so rounding gives ~1e-13), and refusal of a matrix that is not positive
// definite.
#include "mimic/optim/banded_cholesky.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <limits>
#include <random>
#include <vector>

#include "mimic/optim/normal_solver.hpp"

namespace mo = mimic::optim;

namespace {

// Lower triangle of B B^T + n I restricted to the band (diagonally dominant: positive definite).
mo::SymmetricMatrix random_band(int n, int band, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> entries;
  for (int c = 0; c < n; ++c) {
    entries.emplace_back(c, c, 2.0 * (band + 1) + u(rng));
    for (int r = c + 1; r <= std::min(n - 1, c + band); ++r) entries.emplace_back(r, c, u(rng));
  }
  mo::SymmetricMatrix m(n, n);
  m.setFromTriplets(entries.begin(), entries.end());
  m.makeCompressed();
  return m;
}

Eigen::MatrixXd full(const mo::SymmetricMatrix& lower) {
  return Eigen::MatrixXd(mo::SymmetricMatrix(lower.selfadjointView<Eigen::Lower>()));
}

}  // namespace

TEST(BandedCholesky, SolvesLikeTheDenseFactorisation) {
  std::mt19937 rng(7);
  for (const auto& [n, band] : std::vector<std::pair<int, int>>{
           {1, 0}, {5, 0}, {16, 3}, {17, 16}, {40, 79}, {100, 7}, {157, 31}, {333, 79}}) {
    const mo::SymmetricMatrix h = random_band(n, band, rng);
    EXPECT_EQ(mo::BandedCholesky::bandwidth(h), std::min(band, n - 1));
    mo::BandedCholesky chol;
    chol.analyze(h);
    // Twice with other values: the second factorisation must not depend on the first.
    for (int round = 0; round < 2; ++round) {
      mo::SymmetricMatrix values = h;
      for (Eigen::Index k = 0; k < values.nonZeros(); ++k) values.valuePtr()[k] *= 1.0 + 0.1 * round;
      ASSERT_TRUE(chol.factorize(values)) << n << " " << band;
      const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
      Eigen::VectorXd x = b;
      chol.solve_in_place(x);
      const Eigen::VectorXd expected = full(values).llt().solve(b);
      EXPECT_LE((x - expected).norm(), 1e-11 * expected.norm()) << n << " " << band;
    }
  }
}

TEST(BandedCholesky, RefusesAMatrixThatIsNotPositiveDefinite) {
  std::mt19937 rng(3);
  mo::SymmetricMatrix h = random_band(50, 9, rng);
  mo::BandedCholesky chol;
  chol.analyze(h);
  ASSERT_TRUE(chol.factorize(h));
  h.coeffRef(37, 37) = -1.0;  // a negative pivot in the third block
  EXPECT_FALSE(chol.factorize(h));
  h.coeffRef(37, 37) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(chol.factorize(h));
}

TEST(BandedCholesky, AFailedFactorisationLeavesNoTrace) {
  // Only the entries outside the pattern are cleared before a factorisation (banded_cholesky.cpp): after a
  // refused matrix (a partial factor with NaN left in the storage) and on a pattern with holes in its band,
  // the factor must be bitwise that of a fresh object.
  std::mt19937 rng(5);
  mo::SymmetricMatrix h = random_band(70, 20, rng);
  int count = 0;
  for (int c = 0; c < h.outerSize(); ++c) {
    for (mo::SymmetricMatrix::InnerIterator it(h, c); it; ++it) {
      if (it.row() != c && ++count % 7 == 0) it.valueRef() = 0.0;  // explicit zeros stay in the pattern
    }
  }
  mo::SymmetricMatrix holes = h;
  holes.prune([](Eigen::Index row, Eigen::Index col, double value) { return row == col || value != 0.0; });
  holes.makeCompressed();
  for (const mo::SymmetricMatrix* pattern : {&h, &holes}) {
    mo::BandedCholesky used, fresh;
    used.analyze(*pattern);
    fresh.analyze(*pattern);
    mo::SymmetricMatrix bad = *pattern;
    bad.coeffRef(45, 45) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(used.factorize(bad));
    ASSERT_TRUE(used.factorize(*pattern));
    ASSERT_TRUE(fresh.factorize(*pattern));
    Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(70, -1.0, 2.0), y = x;
    used.solve_in_place(x);
    fresh.solve_in_place(y);
    EXPECT_TRUE(x == y);
    const Eigen::VectorXd expected = full(*pattern).llt().solve(Eigen::VectorXd::LinSpaced(70, -1.0, 2.0));
    EXPECT_LE((x - expected).norm(), 1e-11 * expected.norm());
  }
}

TEST(NormalSolver, BandedForAFullBandSparseOtherwise) {
  {
    std::mt19937 small_rng(5);
    mo::NormalSolver small;
    small.analyze(random_band(mo::NormalSolver::kMinBandedSize - 1, 20, small_rng));
    EXPECT_FALSE(small.banded());
  }
  std::mt19937 rng(11);
  const mo::SymmetricMatrix band = random_band(300, 20, rng);
  // An arrow: the band plus a last row coupling every variable (bandwidth n - 1, few entries).
  mo::SymmetricMatrix arrow = random_band(300, 2, rng);
  for (int c = 0; c < 299; ++c) arrow.coeffRef(299, c) = 0.05;
  arrow.makeCompressed();
  for (const mo::SymmetricMatrix* h : std::vector<const mo::SymmetricMatrix*>{&band, &arrow}) {
    mo::NormalSolver solver;
    solver.analyze(*h);
    EXPECT_EQ(solver.banded(), h == &band);
    ASSERT_TRUE(solver.factorize(*h));
    const Eigen::VectorXd b = Eigen::VectorXd::Ones(300);
    Eigen::VectorXd x = b;
    solver.solve_in_place(x);
    const Eigen::VectorXd expected = full(*h).llt().solve(b);
    EXPECT_LE((x - expected).norm(), 1e-11 * expected.norm());
    mo::SymmetricMatrix negative = *h;
    negative.coeffRef(60, 60) = -100.0;
    EXPECT_FALSE(solver.factorize(negative));
  }
}
