// NormalEquations assembled on a ThreadPool gives exactly the single-thread values (normal_equations.hpp:
// every entry receives the same sums in the same order); so does a sparse product split by rows, or taken
// over a subset of the rows; and an assembly of a range of columns gives those columns' values of a full one.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <utility>
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

Eigen::VectorXd uniform_vector(Eigen::Index size, std::mt19937& rng) {
  Eigen::VectorXd v(size);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& x : v) x = u(rng);
  return v;
}

TEST(SparseProductThreads, IdenticalToEigensProduct) {
  std::mt19937 rng(3);
  const mo::SparseMatrix a = banded(20000, 3000, rng);
  const Eigen::VectorXd v = uniform_vector(a.cols(), rng);
  const Eigen::VectorXd expected = a * v;
  for (int threads : {1, 2, 3}) {
    mimic::core::ThreadPool pool(threads);
    Eigen::VectorXd out;
    mo::multiply(a, v, out, &pool);
    EXPECT_EQ(out, expected) << threads << " threads";
  }
}

// multiply_rows: the listed rows' entries of Eigen's product, bit for bit (the ALM's row screening replays
// them as the full product's), the others untouched; on 1..3 threads, with few and with many rows listed.
TEST(SparseProductThreads, ListedRowsAreEigensProductsEntries) {
  std::mt19937 rng(5);
  const mo::SparseMatrix a = banded(20000, 3000, rng);
  Eigen::VectorXd v = uniform_vector(a.cols(), rng);
  v[17] = -0.0;
  const Eigen::VectorXd expected = a * v;
  for (const double share : {0.001, 0.3, 1.0}) {
    std::bernoulli_distribution listed(share);
    std::vector<int> rows;
    for (int r = 0; r < a.rows(); ++r)
      if (listed(rng)) rows.push_back(r);
    for (int threads : {1, 2, 3}) {
      mimic::core::ThreadPool pool(threads);
      Eigen::VectorXd out = Eigen::VectorXd::Constant(a.rows(), 42.0);
      mo::multiply_rows(a, rows, v, out, &pool);
      std::vector<char> in(static_cast<std::size_t>(a.rows()), 0);
      for (const int r : rows) in[static_cast<std::size_t>(r)] = 1;
      for (int r = 0; r < a.rows(); ++r) {
        if (in[static_cast<std::size_t>(r)]) {
          ASSERT_EQ(out[r], expected[r]) << "row " << r << ", " << threads << " threads";
          ASSERT_EQ(std::signbit(out[r]), std::signbit(expected[r])) << "row " << r;
        } else {
          ASSERT_EQ(out[r], 42.0) << "unlisted row " << r << " written";
        }
      }
    }
  }
}

TEST(SparseProductThreads, RowAbsoluteSums) {
  std::mt19937 rng(9);
  const mo::SparseMatrix a = banded(20000, 3000, rng);
  const Eigen::VectorXd expected = Eigen::MatrixXd(a).cwiseAbs().rowwise().sum();
  for (int threads : {1, 2, 3}) {
    mimic::core::ThreadPool pool(threads);
    Eigen::VectorXd out;
    mo::row_abs_sums(a, out, &pool);
    ASSERT_EQ(out.size(), a.rows());
    EXPECT_LE((out - expected).lpNorm<Eigen::Infinity>(), 1e-12 * expected.maxCoeff()) << threads;
  }
}

// assemble_columns(first, last): the columns in the range get the full assembly's values bit for bit, the
// others keep what they held, on one thread and on several (ranges inside one part, across parts, empty,
// everything); accumulating onto the same base as the full assembly too.
TEST(NormalEquationsThreads, AColumnRangeGetsTheFullAssemblysValues) {
  std::mt19937 rng(11);
  const int n = 300;
  const mo::SparseMatrix a = banded(900, n, rng), b = banded(400, n, rng);
  Eigen::VectorXd wa = Eigen::VectorXd::Ones(a.rows()), wb(b.rows());
  std::bernoulli_distribution active(0.3);
  for (Eigen::Index i = 0; i < wb.size(); ++i) wb[i] = active(rng) ? 2.5 : 0.0;
  const Eigen::VectorXd zeros = Eigen::VectorXd::Zero(a.rows());
  const std::array<const mo::SparseMatrix*, 2> blocks = {&a, &b};
  const std::array<const Eigen::VectorXd*, 2> weights = {&wa, &wb};
  const std::array<const Eigen::VectorXd*, 2> only_b = {&zeros, &wb};
  for (int threads : {1, 2, 3}) {
    mimic::core::ThreadPool pool(threads);
    mo::NormalEquations full(blocks, nullptr), part(blocks, nullptr);
    full.set_thread_pool(&pool);
    part.set_thread_pool(&pool);
    full.assemble(blocks, weights);
    const Eigen::VectorXd base = full.matrix().coeffs();  // a's and b's rows
    full.assemble(blocks, only_b, nullptr, 1.0, /*accumulate=*/true);
    const int* outer = full.matrix().outerIndexPtr();
    for (const auto& [first, last] :
         {std::pair{0, n}, std::pair{5, 9}, std::pair{40, 260}, std::pair{299, 300}, std::pair{120, 120}}) {
      // Not accumulating: the range from scratch, the rest left as it was (here: -1).
      part.matrix().coeffs().setConstant(-1.0);
      part.assemble_columns(blocks, weights, first, last, /*accumulate=*/false);
      for (int c = 0; c < n; ++c) {
        for (int k = outer[c]; k < outer[c + 1]; ++k) {
          ASSERT_EQ(part.matrix().valuePtr()[k], c >= first && c < last ? base[k] : -1.0)
              << "column " << c << ", range [" << first << ", " << last << "), " << threads << " threads";
        }
      }
      // Accumulating b's rows again onto the base in the range: the full accumulation's values there.
      part.matrix().coeffs() = base;
      part.assemble_columns(blocks, only_b, first, last, /*accumulate=*/true);
      for (int c = 0; c < n; ++c) {
        for (int k = outer[c]; k < outer[c + 1]; ++k) {
          ASSERT_EQ(part.matrix().valuePtr()[k],
                    c >= first && c < last ? full.matrix().valuePtr()[k] : base[k])
              << "column " << c << ", range [" << first << ", " << last << "), " << threads << " threads";
        }
      }
    }
    EXPECT_THROW(part.assemble_columns(blocks, weights, 10, 5, false), std::invalid_argument);
    EXPECT_THROW(part.assemble_columns(blocks, weights, -1, 5, false), std::invalid_argument);
    EXPECT_THROW(part.assemble_columns(blocks, weights, 0, n + 1, false), std::invalid_argument);
  }
}

}  // namespace
