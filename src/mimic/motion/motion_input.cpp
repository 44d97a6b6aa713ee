#include "mimic/motion/motion_input.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "mimic/core/error.hpp"

namespace mimic::motion {

namespace {

void check_matrix(const Eigen::MatrixXd& m, const char* name, Eigen::Index rows, Eigen::Index cols) {
  if (m.rows() != rows || m.cols() != cols) {
    throw InputError(input_error_message("motion input", name,
                                         "expected " + std::to_string(rows) + " x " + std::to_string(cols) +
                                             ", found " + std::to_string(m.rows()) + " x " +
                                             std::to_string(m.cols())));
  }
  if (!m.allFinite()) throw InputError(input_error_message("motion input", name, "non-finite value"));
}

}  // namespace

void validate_input(const model::Model& model, const MotionInput& input) {
  if (!(input.rate > 0.0) || !std::isfinite(input.rate)) {
    throw InputError(input_error_message("motion input", "rate", "expected a positive rate"));
  }
  const Eigen::Index n = input.motion.size();
  if (n < 3) throw InputError(input_error_message("motion input", "motion", "expected at least 3 samples"));
  try {
    model::validate(model, input.motion);
  } catch (const std::invalid_argument& e) {
    throw InputError(input_error_message("motion input", "motion", e.what()));
  }
  // The problem samples at n / rate: the motion's own times must be those (to rounding).
  for (Eigen::Index k = 0; k < n; ++k) {
    const double expected = static_cast<double>(k) / input.rate;
    if (std::abs(input.motion.times[static_cast<std::size_t>(k)] - expected) > 1e-9 * (1.0 + expected)) {
      throw InputError(input_error_message(
          "motion input", "motion.times",
          "sample " + std::to_string(k) + " is not at " + std::to_string(expected) + " s (k / rate)"));
    }
  }
  check_matrix(input.motion.q, "motion.q", model.nq, n);
  check_matrix(input.motion.v, "motion.v", model.nv, n);
  check_matrix(input.motion.a, "motion.a", model.nv, n);
  check_matrix(input.end_effectors, "end_effectors", 9, n);
  if (input.rest.size() != 0 && input.rest.size() != model.nj) {
    throw InputError(input_error_message("motion input", "rest",
                                         "expected " + std::to_string(model.nj) + " joint values or none"));
  }
  if (!input.rest.allFinite())
    throw InputError(input_error_message("motion input", "rest", "non-finite value"));
}

}  // namespace mimic::motion
