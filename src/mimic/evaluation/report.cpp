#include "mimic/evaluation/report.hpp"

#include <fmt/format.h>

namespace mimic::evaluation {

const char* to_string(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::kAngle:
      return "angle";
    case ViolationKind::kVelocity:
      return "velocity";
    case ViolationKind::kTorque:
      return "torque";
    case ViolationKind::kZmp:
      return "zmp";
    case ViolationKind::kSlip:
      return "slip";
    case ViolationKind::kCollision:
      return "collision";
    case ViolationKind::kGround:
      return "ground";
  }
  return "?";
}

std::string describe(const Violation& v) {
  return fmt::format("{} {} at t = {:.3f} s (value {:.5g}, limit {:.5g})", to_string(v.kind), v.where, v.time,
                     v.value, v.limit);
}

}  // namespace mimic::evaluation
