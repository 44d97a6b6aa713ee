// Number text for hrpsys files and JSON: strict parsing, shortest round-trip output.
#include "mimic/core/number_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace mimic::core {
namespace {

TEST(ParseNumber, AcceptsWhatStreamsAccept) {
  for (const auto& [text, value] : std::vector<std::pair<std::string, double>>{{"0", 0.0},
                                                                               {"-0.6487", -0.6487},
                                                                               {"+1.5", 1.5},
                                                                               {".5", 0.5},
                                                                               {"1.", 1.0},
                                                                               {"1e-3", 1e-3},
                                                                               {"1.0000000e+00", 1.0},
                                                                               {"-2E2", -200.0},
                                                                               {"1e-400", 0.0}}) {
    const ParsedNumber parsed = parse_number(text);
    EXPECT_EQ(parsed.status, NumberStatus::kOk) << text;
    EXPECT_EQ(parsed.value, value) << text;
  }
  EXPECT_GT(parse_number("1e-310").value, 0.0);  // subnormal, as a stream reads it
}

TEST(ParseNumber, RejectsWithTheReason) {
  for (const char* text : {"nan", "NaN", "-nan", "nan(0x1)", "inf", "-Inf", "+INF", "infinity"}) {
    EXPECT_EQ(parse_number(text).status, NumberStatus::kNonFinite) << text;
  }
  EXPECT_EQ(parse_number("1e400").status, NumberStatus::kOverflow);
  EXPECT_EQ(parse_number("-1e400").status, NumberStatus::kOverflow);
  for (const char* text : {"", "+", "-", "+-1", "abc", "1,5", "0x10", "1e5x", "1.2.3", ".", "e5", "nanx2"}) {
    EXPECT_EQ(parse_number(text).status, NumberStatus::kNotANumber) << text;
  }
}

TEST(FormatNumber, ShortestRoundTrip) {
  EXPECT_EQ(format_number(0.005), "0.005");
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_number(1e-10), "1e-10");
  EXPECT_EQ(format_number(123456789.125), "123456789.125");
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-1e3, 1e3);
  for (int i = 0; i < 10000; ++i) {
    const double x = value(rng) * std::pow(10.0, static_cast<int>(rng() % 40) - 20);
    ASSERT_EQ(parse_number(format_number(x)).value, x);
  }
}

TEST(AppendTime, NanosecondGrid) {
  std::string out;
  append_time(out, 0.1 + 0.2);
  EXPECT_EQ(out, "0.3");
  out.clear();
  append_time(out, 3 * 0.005);
  EXPECT_EQ(out, "0.015");
  out.clear();
  append_time(out, 12345.678901234);
  EXPECT_EQ(out, "12345.678901234");
  out.clear();
  append_time(out, -0.0000000001);
  EXPECT_EQ(out, "0");
}

}  // namespace
}  // namespace mimic::core
