// Helpers shared by the mocap tests: capturing spdlog output, checking InputError messages, small BVH
// skeletons written in any unit / up axis / line ending.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "mimic/core/error.hpp"

namespace mimic::test {

// Redirects the default spdlog logger into a string for the lifetime of the object.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream_);
    auto logger = std::make_shared<spdlog::logger>("capture", sink);
    logger->set_level(spdlog::level::warn);
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  std::string text() const { return stream_.str(); }

 private:
  std::ostringstream stream_;
  std::shared_ptr<spdlog::logger> previous_;
};

// Runs `f`, expects an InputError, returns its message ("" and a test failure when none is thrown).
inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected InputError, nothing was thrown";
  return {};
}

// A small human skeleton in BVH text: Hips (6 channels) with a spine to the head and two legs and two
// arms; about 1.7 m tall when `unit_per_metre` converts metres to file units. The figure stands with its
// head along +`up` (0 = x, 1 = y, 2 = z) and faces +`forward`; its left is then up x forward (so that
// forward = left x up, right-handed).
struct SkeletonSpec {
  double unit_per_metre = 100.0;  // cm by default
  int up = 1;                     // y up, like CMU
  int forward = 2;                // facing +z, like CMU
  std::string eol = "\n";
  int frames = 3;
};

inline std::string human_bvh(const SkeletonSpec& spec) {
  const int up = spec.up, fw = spec.forward;
  // left = up x forward for the basis vectors (right-handed).
  const int left = 3 - up - fw;
  auto vec = [&](double along_up, double along_left, double along_forward) {
    double v[3] = {0, 0, 0};
    v[up] += along_up;
    // e_up x e_fw = +e_left when (up, forward) is cyclic (x then y, y then z, z then x), else -e_left.
    const double s = ((up + 1) % 3 == fw) ? 1.0 : -1.0;
    v[left] += s * along_left;
    v[fw] += along_forward;
    std::ostringstream o;
    o.precision(10);
    o << v[0] * spec.unit_per_metre << " " << v[1] * spec.unit_per_metre << " " << v[2] * spec.unit_per_metre;
    return o.str();
  };
  const std::string& n = spec.eol;
  std::ostringstream b;
  b << "HIERARCHY" << n << "ROOT Hips" << n << "{" << n;
  b << "  OFFSET 0 0 0" << n << "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
    << n;
  b << "  JOINT Spine" << n << "  {" << n << "    OFFSET " << vec(0.3, 0, 0) << n
    << "    CHANNELS 3 Zrotation Xrotation Yrotation" << n;
  b << "    JOINT Head" << n << "    {" << n << "      OFFSET " << vec(0.3, 0, 0) << n
    << "      CHANNELS 3 Zrotation Xrotation Yrotation" << n;
  b << "      End Site" << n << "      {" << n << "        OFFSET " << vec(0.2, 0, 0) << n << "      }" << n;
  b << "    }" << n;
  for (int side = 0; side < 2; ++side) {
    const std::string s = side == 0 ? "Left" : "Right";
    const double l = side == 0 ? 1.0 : -1.0;
    b << "    JOINT " << s << "Arm" << n << "    {" << n << "      OFFSET " << vec(0.2, 0.2 * l, 0) << n
      << "      CHANNELS 3 Zrotation Yrotation Xrotation" << n;
    b << "      End Site" << n << "      {" << n << "        OFFSET " << vec(0, 0.55 * l, 0) << n << "      }"
      << n;
    b << "    }" << n;
  }
  b << "  }" << n;
  for (int side = 0; side < 2; ++side) {
    const std::string s = side == 0 ? "Left" : "Right";
    const double l = side == 0 ? 1.0 : -1.0;
    b << "  JOINT " << s << "UpLeg" << n << "  {" << n << "    OFFSET " << vec(0, 0.1 * l, 0) << n
      << "    CHANNELS 3 Zrotation Xrotation Yrotation" << n;
    b << "    JOINT " << s << "Foot" << n << "    {" << n << "      OFFSET " << vec(-0.9, 0, 0) << n
      << "      CHANNELS 3 Zrotation Xrotation Yrotation" << n;
    b << "      End Site" << n << "      {" << n << "        OFFSET " << vec(0, 0, 0.15) << n << "      }"
      << n;
    b << "    }" << n << "  }" << n;
  }
  b << "}" << n << "MOTION" << n << "Frames: " << spec.frames << n << "Frame Time: 0.01" << n;
  // Channels: 6 + 3 (Spine) + 3 (Head) + 3 + 3 (arms) + 3 + 3 + 3 + 3 (legs) = 30.
  for (int f = 0; f < spec.frames; ++f) {
    double root[3] = {0, 0, 0};
    root[up] = 0.9 * spec.unit_per_metre;
    root[fw] = 0.1 * f * spec.unit_per_metre;
    b << root[0] << " " << root[1] << " " << root[2];
    for (int c = 3; c < 30; ++c) b << " " << ((c * 7 + f * 3) % 11 - 5);  // small rotations, degrees
    b << n;
  }
  return b.str();
}

}  // namespace mimic::test
