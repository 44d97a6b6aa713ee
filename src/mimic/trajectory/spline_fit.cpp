#include "mimic/trajectory/spline_fit.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <stdexcept>
#include <string>

#include "mimic/trajectory/sampled_basis.hpp"

namespace mimic::trajectory {

Eigen::VectorXd fit_spline(const SplineParameterization& parameterization, const std::vector<double>& times,
                           const Eigen::MatrixXd& reference) {
  const int nj = parameterization.num_joints();
  const int m = parameterization.num_slots();
  if (reference.rows() != nj || reference.cols() != static_cast<Eigen::Index>(times.size())) {
    throw std::invalid_argument("fit_spline: reference must be " + std::to_string(nj) + " x " +
                                std::to_string(times.size()));
  }
  if (m == 0) return Eigen::VectorXd();  // both ends pinned on a two-interval spline: nothing to fit
  const SampledBasis basis(parameterization, times);

  // What the pinned ends contribute is known; the free slots fit the rest.
  JointSamples pinned;
  basis.evaluate(Eigen::VectorXd::Zero(parameterization.num_variables()), pinned);
  const Eigen::MatrixXd target = reference - pinned.q;

  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(times.size() * kOrder * kOrder);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(m, nj);  // B^T target^T
  for (int n = 0; n < basis.num_samples(); ++n) {
    const int first = basis.first_slot(n);
    for (int a = 0; a < basis.slot_count(n); ++a) {
      const double ba = basis.coefficient(n, 0, a);
      rhs.row(first + a) += ba * target.col(n).transpose();
      for (int b = 0; b <= a; ++b)
        entries.emplace_back(first + a, first + b, ba * basis.coefficient(n, 0, b));
    }
  }
  Eigen::SparseMatrix<double> normal(m, m);
  normal.setFromTriplets(entries.begin(), entries.end());  // duplicates are summed

  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt(normal);
  const double largest = normal.diagonal().maxCoeff();
  if (ldlt.info() != Eigen::Success || !(ldlt.vectorD().minCoeff() > 1e-12 * largest)) {
    throw std::invalid_argument("fit_spline: " + std::to_string(times.size()) +
                                " samples do not determine the " + std::to_string(m) +
                                " free control points (sample more densely than the knot spacing of " +
                                std::to_string(parameterization.basis().knot_spacing()) + " s)");
  }
  const Eigen::MatrixXd free = ldlt.solve(rhs);  // m x nj
  Eigen::VectorXd x(parameterization.num_variables());
  Eigen::Map<Eigen::MatrixXd>(x.data(), nj, m) = free.transpose();
  return x;
}

}  // namespace mimic::trajectory
