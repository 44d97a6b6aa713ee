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
#include <stdexcept>
#include <tuple>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/normal_solver.hpp"
#include "mimic/optim/split_banded_cholesky.hpp"

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

namespace {

// lower += weight g g^T for g random on columns first .. first + width - 1 (inside the band: width <= band +
// 1).
void add_row(mo::SymmetricMatrix& lower, int first, int width, double weight, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd g(width);
  for (int k = 0; k < width; ++k) g[k] = u(rng);
  for (int c = 0; c < width; ++c) {
    for (int r = c; r < width; ++r) lower.coeffRef(first + r, first + c) += weight * g[r] * g[c];
  }
}

}  // namespace

TEST(BandedCholesky, ARefactorisationFromAColumnIsBitwiseTheFullOne) {
  // The ALM's active-set loop (alm_subproblem.cpp): rows g enter (+ sigma g g^T) or leave (- sigma g g^T)
  // and bounds switch (+- sigma on a diagonal entry), all at or after some column; refactorize() from that
  // column must give the factor factorize() gives, bit for bit (the same operations in the same order), on
  // block edges (n not a multiple of the block, the first changed column inside, at the start of, or past
  // the last block). Against the dense LLT to 100 eps cond(A): the backward-stable Cholesky's forward error.
  std::mt19937 rng(11);
  for (const auto& [n, band] : std::vector<std::pair<int, int>>{{17, 16}, {100, 7}, {157, 31}, {333, 79}}) {
    const mo::SymmetricMatrix base = random_band(n, band, rng);
    for (const int first : {0, 1, n / 3, 16 * (n / 32), n - 2, n - 1}) {
      mo::BandedCholesky chol, fresh;
      chol.analyze(base);
      fresh.analyze(base);
      // Before: the base with two rows active from `first` on (the one to leave, the one to stay).
      mo::SymmetricMatrix before = base;
      const int width = std::min(band + 1, n - first);
      std::mt19937 leaving(first);
      add_row(before, first, width, 10.0, leaving);
      add_row(before, n - width, width, 10.0, rng);
      ASSERT_TRUE(chol.factorize(before));
      // After: the first row leaves, two enter, a bound switches on.
      mo::SymmetricMatrix after = before;
      leaving.seed(first);
      add_row(after, first, width, -10.0, leaving);
      add_row(after, first, width, 10.0, rng);
      add_row(after, n - width, width, 10.0, rng);
      after.coeffRef(n - 1, n - 1) += 10.0;
      ASSERT_TRUE(chol.refactorize(after, first)) << n << " " << first;
      ASSERT_TRUE(fresh.factorize(after));
      Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0), y = x;
      chol.solve_in_place(x);
      fresh.solve_in_place(y);
      EXPECT_TRUE(x == y) << n << " " << band << " " << first;
      const Eigen::MatrixXd dense = full(after);
      const Eigen::VectorXd eigenvalues = dense.selfadjointView<Eigen::Lower>().eigenvalues();
      const double cond = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
      const Eigen::VectorXd expected = dense.llt().solve(Eigen::VectorXd::LinSpaced(n, -1.0, 2.0));
      EXPECT_LE((x - expected).norm(),
                100.0 * std::numeric_limits<double>::epsilon() * cond * expected.norm());
    }
  }
}

TEST(BandedCholesky, ARefactorisationAfterARefusalIsAFullOne) {
  // A refused matrix leaves a partial factor: the next refactorize() cannot keep any of it.
  std::mt19937 rng(13);
  const mo::SymmetricMatrix h = random_band(90, 20, rng);
  mo::BandedCholesky chol, fresh;
  chol.analyze(h);
  fresh.analyze(h);
  mo::SymmetricMatrix bad = h;
  bad.coeffRef(5, 5) = -1.0;
  ASSERT_TRUE(chol.factorize(h));
  EXPECT_FALSE(chol.refactorize(bad, 5));
  ASSERT_TRUE(chol.refactorize(h, 60));
  ASSERT_TRUE(fresh.factorize(h));
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(90, -1.0, 2.0), y = x;
  chol.solve_in_place(x);
  fresh.solve_in_place(y);
  EXPECT_TRUE(x == y);
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

namespace {

// A band matrix with every other off-diagonal entry of a few columns left out of the pattern (holes, also
// in the separator's block), so that entries outside the pattern must read zero in every factorisation.
mo::SymmetricMatrix band_with_holes(int n, int band, std::mt19937& rng) {
  mo::SymmetricMatrix h = random_band(n, band, rng);
  h.prune(
      [&](Eigen::Index row, Eigen::Index col, double) { return row == col || (row + 3 * col) % 11 != 0; });
  h.makeCompressed();
  return h;
}

Eigen::VectorXd split_solve(const mo::SplitBandedCholesky& chol, int n, mimic::core::ThreadPool* pool) {
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
  chol.solve_in_place(x, pool);
  return x;
}

}  // namespace

TEST(SplitBandedCholesky, SolvesLikeTheDenseFactorisationOnAnyThreadCount) {
  // Sizes around the smallest that splits, odd sizes (halves of unequal length, not multiples of the block),
  // bands of 0, 1 and not a multiple of the block, with and without holes. To 1e-11 relative as the single
  // band (condition numbers < 1e3); 2 threads bitwise as 1 (the same operations in the same order).
  mimic::core::ThreadPool pool(2);
  std::mt19937 rng(17);
  for (const auto& [n, band] : std::vector<std::pair<int, int>>{
           {7, 0}, {13, 1}, {6 * 4 + 3, 3}, {101, 7}, {257, 31}, {600, 79}, {1001, 79}}) {
    ASSERT_TRUE(mo::SplitBandedCholesky::splits(n, band)) << n << " " << band;
    for (const bool holes : {false, true}) {
      const mo::SymmetricMatrix h = holes ? band_with_holes(n, band, rng) : random_band(n, band, rng);
      mo::SplitBandedCholesky one, two;
      one.analyze(h);
      two.analyze(h);
      for (int round = 0; round < 2; ++round) {
        mo::SymmetricMatrix values = h;
        for (Eigen::Index k = 0; k < values.nonZeros(); ++k) values.valuePtr()[k] *= 1.0 + 0.1 * round;
        ASSERT_TRUE(one.factorize(values, nullptr)) << n << " " << band;
        ASSERT_TRUE(two.factorize(values, &pool)) << n << " " << band;
        const Eigen::VectorXd x = split_solve(one, n, nullptr);
        EXPECT_TRUE(x == split_solve(two, n, &pool)) << n << " " << band;
        EXPECT_TRUE(x == split_solve(one, n, &pool)) << n << " " << band;
        const Eigen::VectorXd expected = full(values).llt().solve(Eigen::VectorXd::LinSpaced(n, -1.0, 2.0));
        EXPECT_LE((x - expected).norm(), 1e-11 * expected.norm()) << n << " " << band << " " << holes;
      }
    }
  }
  // A half reads its values from the whole matrix through one source index per value, inside it.
  const mo::SymmetricMatrix part = random_band(30, 3, rng);
  std::vector<int> source(static_cast<std::size_t>(part.nonZeros()));
  EXPECT_THROW(mo::BandedCholesky().analyze(part, {1, 2}, 100), std::invalid_argument);
  EXPECT_THROW(mo::BandedCholesky().analyze(part, source, 0), std::invalid_argument);
  EXPECT_FALSE(mo::SplitBandedCholesky::splits(6 * 4 + 2, 3));
  EXPECT_THROW(mo::SplitBandedCholesky().analyze(random_band(6 * 4 + 2, 3, rng)), std::invalid_argument);
}

TEST(SplitBandedCholesky, ARefactorisationOfAChangedRangeIsBitwiseTheFullOne) {
  // Rows entering and leaving inside [first, last] (alm_subproblem.cpp's active-set loop): in the top only,
  // the bottom only, around the separator, in it alone, reaching the bottom's first or the top's last
  // variable, and across everything; refactorize() must give bitwise the
  // factor of a fresh factorize(), on 1 and 2 threads.
  mimic::core::ThreadPool pool(2);
  std::mt19937 rng(19);
  const int n = 700, band = 40;
  const mo::SymmetricMatrix base = random_band(n, band, rng);
  const int middle = (n - band + 1) / 2;  // the separator's first column
  for (const auto& [first, last] : std::vector<std::pair<int, int>>{{3, 3 + band},
                                                                    {n - 1 - band, n - 1},
                                                                    {middle - 10, middle + band + 10},
                                                                    {middle, middle + band - 1},
                                                                    {middle + 1, middle + band},
                                                                    {middle - 1, middle + 5},
                                                                    {0, n - 1},
                                                                    {200, 600}}) {
    for (mimic::core::ThreadPool* threads : {static_cast<mimic::core::ThreadPool*>(nullptr), &pool}) {
      mo::SplitBandedCholesky chol, fresh;
      chol.analyze(base);
      fresh.analyze(base);
      const int width = std::min(band + 1, last - first + 1);  // rows inside [first, last]
      mo::SymmetricMatrix before = base;
      std::mt19937 leaving(first);
      add_row(before, first, width, 10.0, leaving);
      ASSERT_TRUE(chol.factorize(before, threads));
      // After: the row at `first` leaves, rows at both ends of the range enter, a bound switches on at last.
      mo::SymmetricMatrix after = before;
      leaving.seed(first);
      add_row(after, first, width, -10.0, leaving);
      add_row(after, first, width, 10.0, rng);
      add_row(after, last + 1 - width, width, 10.0, rng);
      after.coeffRef(last, last) += 10.0;
      ASSERT_TRUE(chol.refactorize(after, first, last, threads)) << first << " " << last;
      ASSERT_TRUE(fresh.factorize(after, nullptr));
      EXPECT_TRUE(split_solve(chol, n, threads) == split_solve(fresh, n, nullptr)) << first << " " << last;
      const Eigen::VectorXd expected = full(after).llt().solve(Eigen::VectorXd::LinSpaced(n, -1.0, 2.0));
      EXPECT_LE((split_solve(chol, n, nullptr) - expected).norm(), 1e-11 * expected.norm());
    }
  }
}

TEST(SplitBandedCholesky, RefusesAMatrixThatIsNotPositiveDefiniteInAnyPart) {
  // A negative pivot in the top, in the bottom, or only in the separator's Schur complement (a diagonal
  // entry there positive, but smaller than what the halves take from it); afterwards a good matrix
  // factorises in full again, bitwise as a fresh object.
  mimic::core::ThreadPool pool(2);
  std::mt19937 rng(23);
  const int n = 300, band = 20;
  const mo::SymmetricMatrix h = random_band(n, band, rng);
  const int middle = (n - band + 1) / 2;
  mo::SplitBandedCholesky fresh;
  fresh.analyze(h);
  ASSERT_TRUE(fresh.factorize(h, nullptr));
  for (const int pivot : {10, n - 10, middle + band / 2}) {
    mo::SplitBandedCholesky chol;
    chol.analyze(h);
    ASSERT_TRUE(chol.factorize(h, &pool));
    mo::SymmetricMatrix bad = h;
    bad.coeffRef(pivot, pivot) = -1.0;
    EXPECT_FALSE(chol.refactorize(bad, pivot, pivot, &pool)) << pivot;
    ASSERT_TRUE(chol.refactorize(h, pivot, pivot, &pool));
    EXPECT_TRUE(split_solve(chol, n, nullptr) == split_solve(fresh, n, nullptr)) << pivot;
  }
  // Positive diagonal, indefinite Schur complement: a separator variable coupled to its top neighbour with
  // a correlation of 2.
  mo::SymmetricMatrix schur = h;
  schur.coeffRef(middle, middle) = 1.0;
  schur.coeffRef(middle - 1, middle - 1) = 1.0;
  schur.coeffRef(middle, middle - 1) = 2.0;
  mo::SplitBandedCholesky chol;
  chol.analyze(schur);
  EXPECT_FALSE(chol.factorize(schur, &pool));
}

TEST(NormalSolver, SplitsALongBand) {
  std::mt19937 rng(29);
  for (const auto& [n, band, split] :
       std::vector<std::tuple<int, int, bool>>{{300, 20, true}, {300, 60, false}}) {
    const mo::SymmetricMatrix h = random_band(n, band, rng);
    mimic::core::ThreadPool pool(2);
    mo::NormalSolver solver;
    solver.analyze(h, &pool);
    EXPECT_TRUE(solver.banded());
    EXPECT_EQ(solver.split(), split) << n << " " << band;
    ASSERT_TRUE(solver.factorize(h));
    Eigen::VectorXd x = Eigen::VectorXd::Ones(n);
    solver.solve_in_place(x);
    const Eigen::VectorXd expected = full(h).llt().solve(Eigen::VectorXd::Ones(n));
    EXPECT_LE((x - expected).norm(), 1e-11 * expected.norm());
  }
}
