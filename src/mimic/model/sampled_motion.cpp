#include "mimic/model/sampled_motion.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "mimic/model/configuration.hpp"

namespace mimic::model {

void differentiate(const Model& model, const std::vector<double>& times, const Eigen::MatrixXd& q,
                   Eigen::MatrixXd& v, Eigen::MatrixXd& a) {
  const Eigen::Index n = q.cols();
  v.setZero(model.nv, n);
  a.setZero(model.nv, n);
  if (n < 2) return;
  Eigen::VectorXd back(model.nv), ahead(model.nv);
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto t = [&](Eigen::Index i) { return times[static_cast<std::size_t>(i)]; };
    if (k == 0 || k == n - 1) {
      // One-sided: the velocity of the end interval; acceleration of the neighbouring inner sample when there
      // is one (filled after the loop).
      const Eigen::Index k0 = k == 0 ? 0 : n - 2;
      difference(model, q.col(k0), q.col(k0 + 1), ahead);
      v.col(k) = ahead / (t(k0 + 1) - t(k0));
      continue;
    }
    // Both neighbours seen from the tangent space at k: back = q_{k-1} ⊖ q_k (so -d1), ahead = q_{k+1} ⊖ q_k.
    difference(model, q.col(k), q.col(k - 1), back);
    difference(model, q.col(k), q.col(k + 1), ahead);
    const double h1 = t(k) - t(k - 1), h2 = t(k + 1) - t(k);
    // Second-order non-uniform central differences (Fornberg's three-point weights).
    v.col(k) = (h1 / (h2 * (h1 + h2))) * ahead - (h2 / (h1 * (h1 + h2))) * back;
    a.col(k) = 2.0 * (ahead / h2 + back / h1) / (h1 + h2);
  }
  if (n >= 3) {
    a.col(0) = a.col(1);
    a.col(n - 1) = a.col(n - 2);
  }
}

void differentiate(const Model& model, SampledMotion& motion) {
  differentiate(model, motion.times, motion.q, motion.v, motion.a);
}

namespace {

std::string shape(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

}  // namespace

void validate(const Model& model, const SampledMotion& motion) {
  const Eigen::Index n = motion.size();
  for (Eigen::Index k = 0; k < n; ++k) {
    const double t = motion.times[static_cast<std::size_t>(k)];
    if (!std::isfinite(t))
      throw std::invalid_argument("sampled motion: time " + std::to_string(k) + " is not finite");
    if (k > 0 && !(t > motion.times[static_cast<std::size_t>(k - 1)]))
      throw std::invalid_argument("sampled motion: times are not strictly increasing at sample " +
                                  std::to_string(k));
  }
  const std::string expected_q = std::to_string(model.nq) + " x " + std::to_string(n);
  const std::string expected_v = std::to_string(model.nv) + " x " + std::to_string(n);
  if (motion.q.rows() != model.nq || motion.q.cols() != n)
    throw std::invalid_argument("sampled motion: q is " + shape(motion.q) + ", expected " + expected_q);
  if (motion.v.rows() != model.nv || motion.v.cols() != n)
    throw std::invalid_argument("sampled motion: v is " + shape(motion.v) + ", expected " + expected_v);
  if (motion.a.rows() != model.nv || motion.a.cols() != n)
    throw std::invalid_argument("sampled motion: a is " + shape(motion.a) + ", expected " + expected_v);
  if (static_cast<Eigen::Index>(motion.phases.size()) != n)
    throw std::invalid_argument("sampled motion: " + std::to_string(motion.phases.size()) +
                                " contact phases for " + std::to_string(n) + " samples");
}

bool is_uniform(const std::vector<double>& times, double relative_tolerance) {
  if (times.size() < 3) return true;
  const double mean_step = (times.back() - times.front()) / static_cast<double>(times.size() - 1);
  for (std::size_t k = 1; k < times.size(); ++k)
    if (std::abs((times[k] - times[k - 1]) - mean_step) > relative_tolerance * std::abs(mean_step))
      return false;
  return true;
}

}  // namespace mimic::model
