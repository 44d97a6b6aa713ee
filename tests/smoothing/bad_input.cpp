// Malformed input for `mimic smooth` is an InputError (exit code 3) naming the file, and nothing is
// written: a missing .pos, a .pos with a NaN, a .waist whose times disagree with the .pos.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "mimic/core/error.hpp"
#include "mimic/io/motion_files.hpp"
#include "support/temp_path.hpp"

namespace mimic::smoothing {
namespace {

std::string pos_line(double t, double value) {
  std::ostringstream line;
  line << t;
  for (int j = 0; j < 30; ++j) line << ' ' << value;
  return line.str() + "\n";
}

TEST(SmoothBadInput, MissingPosIsAnInputError) {
  const auto base = test::unique_temp_path("smooth_missing");
  EXPECT_THROW(io::read_motion(base.string() + ".pos"), InputError);
}

TEST(SmoothBadInput, NanInPosIsAnInputErrorNamingTheLine) {
  const auto base = test::unique_temp_path("smooth_nan");
  {
    std::ofstream out(base.string() + ".pos");
    out << pos_line(0.0, 0.0) << pos_line(0.005, 0.0) << "0.01 nan" << pos_line(0.0, 0.0).substr(3);
  }
  try {
    io::read_motion(base.string() + ".pos");
    ADD_FAILURE() << "no error for a NaN";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(".pos"), std::string::npos) << e.what();
  }
  std::filesystem::remove(base.string() + ".pos");
}

TEST(SmoothBadInput, WaistTimesDisagreeingWithPosIsAnInputError) {
  const auto base = test::unique_temp_path("smooth_waist");
  {
    std::ofstream pos(base.string() + ".pos");
    pos << pos_line(0.0, 0.0) << pos_line(0.005, 0.0) << pos_line(0.01, 0.0);
    std::ofstream waist(base.string() + ".waist");
    waist << "0 0 0 0.6 0 0 0\n0.005 0 0 0.6 0 0 0\n0.02 0 0 0.6 0 0 0\n";
  }
  EXPECT_THROW(io::read_motion(base.string() + ".pos"), InputError);
  std::filesystem::remove(base.string() + ".pos");
  std::filesystem::remove(base.string() + ".waist");
}

}  // namespace
}  // namespace mimic::smoothing
