#include "mimic/optim/normal_equations.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <array>
#include <random>
#include <vector>

#include "mimic/optim/sparse.hpp"

namespace mo = mimic::optim;

namespace {

mo::SparseMatrix random_block(int rows, int cols, double density, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::bernoulli_distribution keep(density);
  mo::PatternBuilder b(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (keep(rng)) b.add(r, c);
    }
  }
  mo::SparseMatrix m = b.build();
  for (Eigen::Index k = 0; k < m.nonZeros(); ++k) m.valuePtr()[k] = u(rng);
  return m;
}

Eigen::MatrixXd dense_lower_to_full(const mo::SymmetricMatrix& h) {
  const Eigen::MatrixXd lower = Eigen::MatrixXd(h);
  EXPECT_TRUE(lower.isLowerTriangular());
  Eigen::MatrixXd full = lower + lower.transpose();
  full.diagonal() -= lower.diagonal();
  return full;
}

}  // namespace

TEST(NormalEquations, EqualsTheDenseWeightedProduct) {
  std::mt19937 rng(5);
  const int n = 30;
  mo::SparseMatrix a = random_block(40, n, 0.15, rng);
  mo::SparseMatrix b = random_block(7, n, 0.3, rng);
  mo::SparseMatrix c = random_block(25, n, 0.1, rng);
  // Symmetric extra term, given partly below and partly above the diagonal (mirrored).
  mo::SymmetricMatrix extra(n, n);
  extra.insert(3, 3) = 2.0;
  extra.insert(7, 2) = -1.5;
  extra.insert(4, 11) = 0.75;
  extra.makeCompressed();
  Eigen::MatrixXd extra_full = Eigen::MatrixXd::Zero(n, n);
  extra_full(3, 3) = 2.0;
  extra_full(7, 2) = extra_full(2, 7) = -1.5;
  extra_full(4, 11) = extra_full(11, 4) = 0.75;

  const std::array<const mo::SparseMatrix*, 3> blocks = {&a, &b, &c};
  mo::NormalEquations ne(blocks, &extra);
  for (int trial = 0; trial < 3; ++trial) {  // reassembly with new values reuses the pattern
    std::uniform_real_distribution<double> u(0.0, 2.0);
    Eigen::VectorXd wa(a.rows()), wb(b.rows()), wc(c.rows());
    for (auto* w : {&wa, &wb, &wc}) {
      for (int i = 0; i < w->size(); ++i) (*w)[i] = i % 3 == 0 ? 0.0 : u(rng);  // some rows switched off
    }
    for (auto* m : {&a, &b, &c}) {
      for (Eigen::Index k = 0; k < m->nonZeros(); ++k) m->valuePtr()[k] = u(rng) - 1.0;
    }
    const std::array<const Eigen::VectorXd*, 3> weights = {&wa, &wb, &wc};
    const double scale = 0.5 + trial;
    ne.assemble(blocks, weights, &extra, scale);
    const Eigen::MatrixXd expected = Eigen::MatrixXd(a).transpose() * wa.asDiagonal() * Eigen::MatrixXd(a) +
                                     Eigen::MatrixXd(b).transpose() * wb.asDiagonal() * Eigen::MatrixXd(b) +
                                     Eigen::MatrixXd(c).transpose() * wc.asDiagonal() * Eigen::MatrixXd(c) +
                                     scale * extra_full;
    // Sums of products of O(1) entries in another order: round-off, a few 1e-16 per term (1e-12).
    EXPECT_LT((dense_lower_to_full(ne.matrix()) - expected).cwiseAbs().maxCoeff(), 1e-12)
        << "trial " << trial;
    for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(ne.diagonal(i), expected(i, i));
  }
  // Leaving the extra term out.
  Eigen::VectorXd ones_a = Eigen::VectorXd::Ones(a.rows()), zeros_b = Eigen::VectorXd::Zero(b.rows()),
                  zeros_c = Eigen::VectorXd::Zero(c.rows());
  const std::array<const Eigen::VectorXd*, 3> only_a = {&ones_a, &zeros_b, &zeros_c};
  ne.assemble(blocks, only_a, nullptr);
  const Eigen::MatrixXd ata = Eigen::MatrixXd(a).transpose() * Eigen::MatrixXd(a);
  EXPECT_LT((dense_lower_to_full(ne.matrix()) - ata).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(NormalEquations, GroupsOfRowsWithTheSameColumnsGiveTheSameProduct) {
  // Rows in runs sharing their columns (as the torques of one sample do) take the dense Gram path; a
  // run with a negative weight, and runs with a single weighted row, take the row path.
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 40;
  mo::PatternBuilder b(60, n);
  for (int group = 0; group < 12; ++group) {
    std::vector<int> cols;
    for (int c = 0; c < n; ++c) {
      if (u(rng) > 0.4) cols.push_back(c);
    }
    for (int r = 0; r < 5; ++r) b.add_columns(group * 5 + r, cols);
  }
  mo::SparseMatrix a = b.build();
  for (Eigen::Index k = 0; k < a.nonZeros(); ++k) a.valuePtr()[k] = u(rng);
  Eigen::VectorXd w(60);
  for (int r = 0; r < 60; ++r) w[r] = r % 7 == 0 ? 0.0 : 1.0 + u(rng);
  w[12] = -0.5;                              // group 2 has a negative weight
  for (int r = 26; r < 30; ++r) w[r] = 0.0;  // group 5 has one weighted row
  const std::array<const mo::SparseMatrix*, 1> blocks = {&a};
  const std::array<const Eigen::VectorXd*, 1> weights = {&w};
  mo::NormalEquations ne(blocks, nullptr);
  ne.assemble(blocks, weights);
  const Eigen::MatrixXd expected = Eigen::MatrixXd(a).transpose() * w.asDiagonal() * Eigen::MatrixXd(a);
  // Round-off of the 60-term sums in another order (1e-12), as above.
  EXPECT_LT((dense_lower_to_full(ne.matrix()) - expected).cwiseAbs().maxCoeff(), 1e-12);
  // Accumulating adds a second copy.
  ne.assemble(blocks, weights, nullptr, 1.0, /*accumulate=*/true);
  EXPECT_LT((dense_lower_to_full(ne.matrix()) - 2.0 * expected).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(NormalEquations, RowsWithTheSameColumnsAnywhereInTheBlockShareAGroup) {
  // As in a B-spline problem: samples of three row kinds (column lists A, B, C) repeated along the block,
  // A B C A B C ..., so each group's rows are not consecutive; some rows off, one negative weight (its
  // group then takes the row path). The product must be the dense one, and identical on 1, 2 and 3
  // threads (each entry's sums in the same order).
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 50, samples = 30;
  std::vector<std::vector<int>> kinds(3);
  for (auto& cols : kinds) {
    for (int c = 0; c < n; ++c) {
      if (u(rng) > 0.3) cols.push_back(c);
    }
  }
  mo::PatternBuilder b(3 * samples, n);
  for (int s = 0; s < samples; ++s) {
    for (int k = 0; k < 3; ++k) b.add_columns(3 * s + k, kinds[static_cast<std::size_t>(k)]);
  }
  mo::SparseMatrix a = b.build();
  for (Eigen::Index k = 0; k < a.nonZeros(); ++k) a.valuePtr()[k] = u(rng);
  Eigen::VectorXd w(a.rows());
  for (int r = 0; r < w.size(); ++r) w[r] = r % 5 == 0 ? 0.0 : 1.0 + u(rng);
  w[7] = -0.25;  // a row of kind B
  const std::array<const mo::SparseMatrix*, 1> blocks = {&a};
  const std::array<const Eigen::VectorXd*, 1> weights = {&w};
  mo::NormalEquations single(blocks, nullptr);
  single.assemble(blocks, weights);
  const Eigen::MatrixXd expected = Eigen::MatrixXd(a).transpose() * w.asDiagonal() * Eigen::MatrixXd(a);
  // Round-off of 90-term sums of O(1) products in another order (1e-12), as above.
  EXPECT_LT((dense_lower_to_full(single.matrix()) - expected).cwiseAbs().maxCoeff(), 1e-12);
  for (const int threads : {2, 3}) {
    mimic::core::ThreadPool pool(threads);
    mo::NormalEquations threaded(blocks, nullptr);
    threaded.set_thread_pool(&pool);
    threaded.assemble(blocks, weights);
    EXPECT_TRUE(threaded.matrix().coeffs().cwiseEqual(single.matrix().coeffs()).all()) << threads;
  }
}

TEST(NormalEquations, BlocksWithoutWeightedRowsAddNothing) {
  // The ALM's model steps accumulate the inequalities alone onto the other blocks' part, those blocks'
  // weights all 0 (which assemble() skips in one scan): the result must be bitwise that of the weighted block
  // alone, on 1, 2 and 3 threads, and a block whose weights are 0 but one must still count.
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const mo::SparseMatrix a = random_block(80, 30, 0.3, rng);
  const mo::SparseMatrix g = random_block(50, 30, 0.3, rng);
  Eigen::VectorXd wa = Eigen::VectorXd::Zero(a.rows()), wg(g.rows());
  for (double& x : wg) x = u(rng) > 0.0 ? 1.0 + u(rng) : 0.0;
  const std::array<const mo::SparseMatrix*, 2> blocks = {&a, &g};
  const std::array<const Eigen::VectorXd*, 2> weights = {&wa, &wg};
  const std::array<const mo::SparseMatrix*, 1> alone_blocks = {&g};
  const std::array<const Eigen::VectorXd*, 1> alone_weights = {&wg};
  for (const int threads : {1, 2, 3}) {
    mimic::core::ThreadPool pool(threads);
    mo::NormalEquations both(blocks, nullptr), alone(alone_blocks, nullptr);
    both.set_thread_pool(&pool);
    alone.set_thread_pool(&pool);
    both.assemble(blocks, weights);
    alone.assemble(alone_blocks, alone_weights);
    ASSERT_EQ(dense_lower_to_full(both.matrix()), dense_lower_to_full(alone.matrix())) << threads;
  }
  wa[5] = 2.0;
  mo::NormalEquations both(blocks, nullptr);
  both.assemble(blocks, weights);
  const Eigen::MatrixXd expected = Eigen::MatrixXd(a).transpose() * wa.asDiagonal() * Eigen::MatrixXd(a) +
                                   Eigen::MatrixXd(g).transpose() * wg.asDiagonal() * Eigen::MatrixXd(g);
  EXPECT_LT((dense_lower_to_full(both.matrix()) - expected).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(NormalEquations, DiagonalIsAlwaysStoredForDamping) {
  mo::PatternBuilder b(1, 4);
  b.add(0, 1);
  const mo::SparseMatrix a = b.build();
  const std::array<const mo::SparseMatrix*, 1> blocks = {&a};
  mo::NormalEquations ne(blocks, nullptr);
  EXPECT_EQ(ne.matrix().nonZeros(), 4);  // only (1,1) from the product, plus the other three diagonals
  for (int i = 0; i < 4; ++i) {
    ne.add_to_diagonal(i, 1.0 + i);
    EXPECT_EQ(ne.diagonal(i), 1.0 + i);
  }
}

TEST(NormalEquations, RejectsBlocksThatChangedShape) {
  std::mt19937 rng(1);
  mo::SparseMatrix a = random_block(5, 6, 0.5, rng);
  const std::array<const mo::SparseMatrix*, 1> blocks = {&a};
  mo::NormalEquations ne(blocks, nullptr);
  const Eigen::VectorXd wrong = Eigen::VectorXd::Ones(4);
  const std::array<const Eigen::VectorXd*, 1> weights = {&wrong};
  EXPECT_THROW(ne.assemble(blocks, weights), std::invalid_argument);
  const std::array<const mo::SparseMatrix*, 2> two = {&a, &a};
  EXPECT_THROW(ne.assemble(two, weights), std::invalid_argument);
}
