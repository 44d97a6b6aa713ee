#include "mimic/motion/motion_input.hpp"

#include <cmath>
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

void validate_input(const MotionInput& input, int nj) {
  if (!(input.rate > 0.0) || !std::isfinite(input.rate)) {
    throw InputError(input_error_message("motion input", "rate", "expected a positive rate"));
  }
  const Eigen::Index n = input.joints.rows();
  if (n < 3) throw InputError(input_error_message("motion input", "joints", "expected at least 3 samples"));
  check_matrix(input.joints, "joints", n, nj);
  check_matrix(input.end_effectors, "end_effectors", n, 9);
  check_matrix(input.waist, "waist", n, 6);
  if (input.rest.size() != 0 && input.rest.size() != nj) {
    throw InputError(input_error_message("motion input", "rest",
                                         "expected " + std::to_string(nj) + " joint values or none"));
  }
  if (!input.rest.allFinite())
    throw InputError(input_error_message("motion input", "rest", "non-finite value"));
}

}  // namespace mimic::motion
