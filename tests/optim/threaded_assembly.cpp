// NormalEquations assembled on a ThreadPool gives exactly the single-thread values (normal_equations.hpp:
// every entry receives the same sums in the same order); so does a sparse product split by rows.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/normal_equations.hpp"
#include "mimic/optim/sparse.hpp"

namespace mo = mimic::optim;

namespace {

// A block-banded Jacobian like a spline problem's: row groups of 1..6 rows on a window of 2..12
// consecutive columns sliding along, plus some single rows; random values, some zero weights.
mo::SparseMatrix banded(int rows, int cols, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> group(1, 6), width(2, 12);
  mo::PatternBuilder b(rows, cols);
  int r = 0;
  while (r < rows) {
    const int k = group(rng), w = width(rng);
    const int first = std::min(cols - w, r * cols / rows);
    for (int i = 0; i < k && r < rows; ++i, ++r) b.add_range(r, first, w);
  }
  mo::SparseMatrix m = b.build();
  for (Eigen::Index k = 0; k < m.nonZeros(); ++k) m.valuePtr()[k] = u(rng);
  return m;
}

TEST(NormalEquationsThreads, IdenticalToOneThread) {
  std::mt19937 rng(7);
  const int n = 300;
  const mo::SparseMatrix a = banded(900, n, rng), b = banded(400, n, rng);
  mo::SymmetricMatrix extra(n, n);
  for (int i = 0; i < n; ++i) extra.insert(i, i) = 1.0 + i;
  extra.makeCompressed();
  Eigen::VectorXd wa = Eigen::VectorXd::Ones(a.rows()), wb(b.rows());
  std::bernoulli_distribution active(0.3);
  for (Eigen::Index i = 0; i < wb.size(); ++i) wb[i] = active(rng) ? 2.5 : 0.0;
  const std::array<const mo::SparseMatrix*, 2> blocks = {&a, &b};
  const std::array<const Eigen::VectorXd*, 2> weights = {&wa, &wb};

  mo::NormalEquations single(blocks, &extra);
  single.assemble(blocks, weights, &extra, 0.5);
  single.assemble(blocks, weights, nullptr, 1.0, /*accumulate=*/true);
  for (int threads : {2, 3, 5}) {
    mimic::core::ThreadPool pool(threads);
    mo::NormalEquations threaded(blocks, &extra);
    threaded.set_thread_pool(&pool);
    threaded.assemble(blocks, weights, &extra, 0.5);
    threaded.assemble(blocks, weights, nullptr, 1.0, /*accumulate=*/true);
    ASSERT_EQ(threaded.matrix().nonZeros(), single.matrix().nonZeros());
    for (Eigen::Index k = 0; k < single.matrix().nonZeros(); ++k)
      ASSERT_EQ(threaded.matrix().valuePtr()[k], single.matrix().valuePtr()[k]) << threads << " threads";
  }
}

TEST(SparseProductThreads, IdenticalToEigensProduct) {
  std::mt19937 rng(3);
  const mo::SparseMatrix a = banded(20000, 3000, rng);
  Eigen::VectorXd v(a.cols());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& x : v) x = u(rng);
  const Eigen::VectorXd expected = a * v;
  for (int threads : {1, 2, 3}) {
    mimic::core::ThreadPool pool(threads);
    Eigen::VectorXd out;
    mo::multiply(a, v, out, &pool);
    EXPECT_EQ(out, expected) << threads << " threads";
  }
}

}  // namespace
