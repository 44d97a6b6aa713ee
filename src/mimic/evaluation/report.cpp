#include "mimic/evaluation/report.hpp"

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

}  // namespace mimic::evaluation
