// C3D format variants and errors, on small files written by the test (see c3d_builder.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "mimic/mocap/c3d_format.hpp"
#include "mimic/mocap/load.hpp"
#include "mocap/c3d_builder.hpp"
#include "mocap/test_helpers.hpp"

namespace mimic::mocap {
namespace {

using test::build_c3d;
using test::C3dSpec;
using test::input_error_of;

// A standing subject facing +x (left = +y), z up, in mm: head, pelvis and feet markers so that the
// reader can tell up and forward. It walks 10 mm per frame along +x.
C3dSpec walking_subject(int frames = 20) {
  C3dSpec spec;
  spec.labels = {"LFHD", "RFHD", "LASI", "RASI", "LTOE", "RTOE"};
  const Eigen::Vector3d base[] = {{80, 70, 1650},  {80, -70, 1650}, {60, 120, 950},
                                  {60, -120, 950}, {150, 100, 40},  {150, -100, 40}};
  for (int f = 0; f < frames; ++f) {
    std::vector<Eigen::Vector3d> row;
    for (const auto& b : base) row.push_back(b + Eigen::Vector3d(10.0 * f, 0, 0));
    spec.positions.push_back(row);
  }
  return spec;
}

Clip read(const C3dSpec& spec, const LoadOptions& options = {}) {
  const std::vector<std::byte> bytes = build_c3d(spec);
  return parse_c3d(bytes, "test.c3d", options);
}

Eigen::Vector3d source_position(const Clip& clip, int frame, int marker) {
  return clip.conversion.to_source(clip.markers().position(frame, marker));
}

TEST(C3dReader, ProcessorAndStorageMatrixDecodesTheSameData) {
  for (int processor : {84, 85, 86}) {
    for (bool float_storage : {false, true}) {
      SCOPED_TRACE("processor " + std::to_string(processor) + (float_storage ? " float" : " int"));
      C3dSpec spec = walking_subject();
      spec.processor = processor;
      spec.float_storage = float_storage;
      spec.scale = 0.5;  // every coordinate above is a multiple of 0.5: integers decode exactly
      const Clip clip = read(spec);
      const MarkerClip& m = clip.markers();
      ASSERT_EQ(m.marker_count(), 6);
      ASSERT_EQ(m.frame_count(), 20);
      EXPECT_DOUBLE_EQ(m.rate, 100.0);
      EXPECT_EQ(m.first_frame, 1);
      for (int f = 0; f < 20; ++f)
        for (int k = 0; k < 6; ++k) {
          EXPECT_TRUE(m.valid(f, k));
          // Exact in every storage; 1e-9 is the round-off of the unit conversion there and back.
          EXPECT_TRUE(source_position(clip, f, k).isApprox(spec.positions[f][k], 1e-9));
        }
    }
  }
}

TEST(C3dReader, ConvertsToMetresZUpXForward) {
  const Clip clip = read(walking_subject());
  EXPECT_EQ(clip.source_unit, LengthUnit::kMillimetre);
  EXPECT_EQ(clip.unit_provenance, Provenance::kDeclared);
  EXPECT_EQ(clip.source_up, (Axis{2, 1}));
  EXPECT_EQ(clip.up_provenance, Provenance::kDetected);
  EXPECT_TRUE(clip.forward_known);
  EXPECT_EQ(clip.source_forward, (Axis{0, 1}));
  const MarkerClip& m = clip.markers();
  // Millimetres that floats hold exactly, divided by 1000: default isApprox (1e-12 relative) is rounding.
  EXPECT_TRUE(m.position(0, m.marker_index("LFHD")).isApprox(Eigen::Vector3d(0.08, 0.07, 1.65)));
  EXPECT_NEAR(clip.initial_heading, 0.0, 1e-12);
}

TEST(C3dReader, YUpMetresFacingMinusZ) {
  // The same subject written y up (like the NexGen file) in metres, facing -z: left is then -x.
  C3dSpec spec = walking_subject();
  spec.units = "m";
  for (auto& row : spec.positions)
    for (auto& p : row) p = Eigen::Vector3d(-p.y(), p.z(), -p.x()) / 1000.0;
  const Clip clip = read(spec);
  EXPECT_EQ(clip.source_unit, LengthUnit::kMetre);
  EXPECT_EQ(clip.source_up, (Axis{1, 1}));
  EXPECT_EQ(clip.source_forward, (Axis{2, -1}));
  const MarkerClip& m = clip.markers();
  // Float storage: metres are exact to float precision only, half an ulp = 6e-8 relative per coordinate.
  EXPECT_TRUE(m.position(0, m.marker_index("LFHD")).isApprox(Eigen::Vector3d(0.08, 0.07, 1.65), 1e-7));
  EXPECT_TRUE(m.position(5, m.marker_index("RTOE")).isApprox(Eigen::Vector3d(0.2, -0.1, 0.04), 1e-7));
}

TEST(C3dReader, UnitsGuessedWhenNotDeclaredAndOverride) {
  C3dSpec spec = walking_subject();
  spec.units = "";
  Clip clip = read(spec);
  EXPECT_EQ(clip.source_unit, LengthUnit::kMillimetre);
  EXPECT_EQ(clip.unit_provenance, Provenance::kDetected);

  spec.units = "parsecs";  // not understood: guessed as well
  clip = read(spec);
  EXPECT_EQ(clip.source_unit, LengthUnit::kMillimetre);
  EXPECT_EQ(clip.unit_provenance, Provenance::kDetected);

  LoadOptions o;
  o.unit = LengthUnit::kCentimetre;
  o.up = Axis{2, 1};
  clip = read(walking_subject(), o);
  EXPECT_EQ(clip.source_unit, LengthUnit::kCentimetre);
  EXPECT_EQ(clip.unit_provenance, Provenance::kOverride);
  EXPECT_EQ(clip.up_provenance, Provenance::kOverride);
}

TEST(C3dReader, FirstFrameAndRateFromHeaderWhenParameterMissing) {
  C3dSpec spec = walking_subject();
  spec.first_frame = 705;
  spec.rate = 120.0;
  spec.write_rate_parameter = false;  // like the Xsens file
  const Clip clip = read(spec);
  EXPECT_EQ(clip.markers().first_frame, 705);
  EXPECT_DOUBLE_EQ(clip.rate(), 120.0);
  EXPECT_EQ(clip.frame_count(), 20);
}

// More than 65535 frames: the header's 16-bit frame numbers saturate, TRIAL gives the real range.
TEST(C3dReader, LongCaptureFrameRangeFromTrialGroup) {
  C3dSpec spec;
  spec.labels = {"LFHD", "RFHD", "LTOE", "RTOE"};
  spec.first_frame = 10;
  const Eigen::Vector3d base[] = {{0, 70, 1650}, {0, -70, 1650}, {150, 100, 40}, {150, -100, 40}};
  for (int f = 0; f < 70000; ++f) {
    std::vector<Eigen::Vector3d> row;
    for (const auto& b : base) row.push_back(b + Eigen::Vector3d(0.001 * f, 0, 0));
    spec.positions.push_back(row);
  }
  spec.write_trial_range = true;
  const Clip clip = read(spec);
  EXPECT_EQ(clip.frame_count(), 70000);
  EXPECT_EQ(clip.markers().first_frame, 10);
  // 0.001 * f mm is not a float: half an ulp, 6e-8 relative.
  EXPECT_TRUE(source_position(clip, 69999, 2).isApprox(spec.positions[69999][2], 1e-7));
}

TEST(C3dReader, LabelsSplitOverLabels2AndExtraLabelsIgnored) {
  C3dSpec spec = walking_subject();
  spec.labels_per_parameter = 4;  // LABELS holds 4, LABELS2 the other 2
  Clip clip = read(spec);
  EXPECT_EQ(clip.markers().labels, spec.labels);

  spec = walking_subject();
  spec.extra_labels = 22;  // more labels declared than points, as Eb015
  spec.labels_per_parameter = 5;
  clip = read(spec);
  EXPECT_EQ(clip.markers().labels, spec.labels);
}

TEST(C3dReader, SubjectPrefixStrippedButKept) {
  C3dSpec spec = walking_subject();
  for (auto& l : spec.labels) l = "AbcdeFghijk:" + l;
  const Clip clip = read(spec);
  const MarkerClip& m = clip.markers();
  EXPECT_EQ(m.labels[0], "LFHD");
  EXPECT_EQ(m.raw_labels[0], "AbcdeFghijk:LFHD");
  EXPECT_EQ(m.marker_index("RFHD"), 1);
  EXPECT_EQ(m.marker_index("AbcdeFghijk:RFHD"), 1);
  EXPECT_EQ(m.marker_index("rfhd"), 1);
  EXPECT_EQ(m.marker_index("NOPE"), -1);
  EXPECT_TRUE(clip.forward_known);
}

TEST(C3dReader, AnalogDataSkippedAndTrailingBytesIgnored) {
  for (bool float_storage : {false, true}) {
    C3dSpec spec = walking_subject();
    spec.float_storage = float_storage;
    spec.scale = 0.5;
    spec.analog_channels = 7;
    spec.analog_samples_per_frame = 10;
    spec.trailing_bytes = 1000;
    const Clip clip = read(spec);
    ASSERT_EQ(clip.frame_count(), 20);
    for (int f = 0; f < 20; ++f)
      for (int k = 0; k < 6; ++k) {
        ASSERT_TRUE(clip.markers().valid(f, k));
        // Exact storage; 1e-9 is the unit conversion's round-off.
        EXPECT_TRUE(source_position(clip, f, k).isApprox(spec.positions[f][k], 1e-9));
      }
  }
}

TEST(C3dReader, NegativeResidualIsMissingAndShortGapsAreFilled) {
  C3dSpec spec = walking_subject(40);
  spec.valid.assign(40, std::vector<bool>(6, true));
  for (int f = 10; f < 13; ++f) spec.valid[f][0] = false;  // 3-frame gap: filled
  for (int f = 5; f < 25; ++f) spec.valid[f][1] = false;   // 20-frame gap: too long
  for (int f = 0; f < 2; ++f) spec.valid[f][2] = false;    // at the start: no sample before
  spec.valid[39][3] = false;                               // at the end

  for (GapFillMethod method : {GapFillMethod::kLinear, GapFillMethod::kCubic}) {
    LoadOptions o;
    o.gap_fill = method;
    test::LogCapture log;
    const Clip clip = read(spec, o);
    const MarkerClip& m = clip.markers();
    // Linear motion: both methods reproduce it exactly (1e-9: interpolation round-off).
    for (int f = 10; f < 13; ++f) {
      EXPECT_EQ(m.state(f, 0), SampleState::kFilled);
      EXPECT_TRUE(source_position(clip, f, 0).isApprox(spec.positions[f][0], 1e-9));
    }
    EXPECT_EQ(m.state(9, 0), SampleState::kMeasured);
    for (int f = 5; f < 25; ++f) {
      EXPECT_EQ(m.state(f, 1), SampleState::kMissing);
      EXPECT_FALSE(m.valid(f, 1));
      EXPECT_TRUE(m.position(f, 1).array().isNaN().all());
    }
    EXPECT_FALSE(m.valid(0, 2));
    EXPECT_FALSE(m.valid(39, 3));
    ASSERT_EQ(m.filled_gaps.size(), 1u);
    EXPECT_EQ(m.filled_gaps[0].marker, 0);
    EXPECT_EQ(m.filled_gaps[0].first, 10);
    EXPECT_EQ(m.filled_gaps[0].length, 3);
    ASSERT_EQ(m.unfilled_gaps.size(), 3u);
    EXPECT_NE(log.text().find("3 marker gaps left missing"), std::string::npos) << log.text();
    EXPECT_NE(log.text().find("RFHD frames 5..24"), std::string::npos) << log.text();
  }

  LoadOptions no_fill;
  no_fill.max_gap_frames = 0;
  EXPECT_FALSE(read(spec, no_fill).markers().valid(11, 0));
  LoadOptions long_fill;
  long_fill.max_gap_frames = 20;
  const Clip filled = read(spec, long_fill);
  EXPECT_TRUE(filled.markers().valid(15, 1));
  EXPECT_EQ(filled.markers().unfilled_gaps.size(), 2u);
}

TEST(C3dReader, CubicFillFollowsCurvedMotion) {
  // A marker on a circle: the cubic bridge stays much closer to the truth than the chord.
  C3dSpec spec = walking_subject(60);
  spec.valid.assign(60, std::vector<bool>(6, true));
  for (int f = 0; f < 60; ++f) {
    const double a = f * 0.05;
    spec.positions[f][0] = Eigen::Vector3d(300 * std::cos(a), 300 * std::sin(a), 1650);
  }
  for (int f = 20; f < 28; ++f) spec.valid[f][0] = false;
  double error[2] = {0, 0};
  for (GapFillMethod method : {GapFillMethod::kLinear, GapFillMethod::kCubic}) {
    LoadOptions o;
    o.gap_fill = method;
    const Clip clip = read(spec, o);
    for (int f = 20; f < 28; ++f)
      error[static_cast<int>(method)] = std::max(error[static_cast<int>(method)],
                                                 (source_position(clip, f, 0) - spec.positions[f][0]).norm());
  }
  // The gap spans 0.4 rad of a 300 mm circle: a chord (linear) misses it by ~7.5 mm (measured 7.47 mm);
  // a cubic through the neighbours by 0.024 mm (measured). 0.1 mm and a ratio of 100 (measured 310)
  // tell the two methods apart with room for the end conditions.
  EXPECT_LT(error[1], 0.1);  // mm
  EXPECT_GT(error[0], 100.0 * error[1]);
}

TEST(C3dReader, MissingDescriptionLengthRecoveredByPointers) {
  C3dSpec spec = walking_subject();
  spec.omit_labels_description_length = true;  // OptiTrack mocap36.c3d
  const Clip clip = read(spec);
  EXPECT_EQ(clip.markers().labels, spec.labels);
  EXPECT_EQ(clip.source_unit, LengthUnit::kMillimetre);
}

TEST(C3dReader, SixCharacterNamesAndLockedParameters) {
  C3dSpec spec = walking_subject();
  spec.truncate_names_to_six = true;  // "DATA_S"
  spec.data_start_only_in_parameter = true;
  spec.lock_parameters = true;
  const std::vector<std::byte> bytes = build_c3d(spec);
  const Clip clip = parse_c3d(bytes, "six.c3d");
  EXPECT_EQ(clip.frame_count(), 20);
  // walking_subject's coordinates are exact in float storage (measured: exact): 1e-9 as above.
  EXPECT_TRUE(source_position(clip, 3, 2).isApprox(spec.positions[3][2], 1e-9));

  const std::string name = "six.c3d";
  detail::C3dBytes reader(bytes, name);
  const detail::C3dParameters parameters = detail::read_c3d_parameters(reader, 512, 512 * 2);
  ASSERT_NE(parameters.find("POINT", "DATA_START"), nullptr);
  EXPECT_EQ(parameters.find("POINT", "DATA_START")->name, "DATA_S");
  EXPECT_TRUE(parameters.find("point", "labels")->locked);
  EXPECT_EQ(parameters.find("POINT", "LABELS2", true), nullptr);  // must not fall back to LABELS
  EXPECT_EQ(parameters.groups, std::vector<std::string>{"POINT"});
}

TEST(C3dReader, DecFloatConversion) {
  // VAX F examples: 1.0 is 0x4080 0x0000 (exponent 129, fraction 0); -0.0833 the Eb015vr POINT:SCALE.
  const std::string name = "dec";
  const std::vector<std::byte> one = {std::byte{0x80}, std::byte{0x40}, std::byte{0}, std::byte{0}};
  detail::C3dBytes reader(one, name);
  reader.set_processor(detail::C3dProcessor::kDec);
  EXPECT_DOUBLE_EQ(reader.f32(0), 1.0);
  const std::vector<std::byte> scale = {std::byte{0xAA}, std::byte{0xBE}, std::byte{0xAB}, std::byte{0xAA}};
  detail::C3dBytes reader2(scale, name);
  reader2.set_processor(detail::C3dProcessor::kDec);
  // The nearest 24-bit-mantissa float to -1/12: half an ulp is 3.7e-9 (measured 2.5e-9).
  EXPECT_NEAR(reader2.f32(0), -1.0 / 12.0, 5e-9);
  const std::vector<std::byte> zero(4, std::byte{0});
  detail::C3dBytes reader3(zero, name);
  reader3.set_processor(detail::C3dProcessor::kDec);
  EXPECT_EQ(reader3.f32(0), 0.0);
}

TEST(C3dReader, ErrorsNameTheByteAndTheExpectation) {
  const std::vector<std::byte> good = build_c3d(walking_subject());
  struct Case {
    const char* what;
    std::vector<std::byte> bytes;
    const char* expected;
  };
  std::vector<Case> cases;
  cases.push_back({"empty", {}, "byte 0: unexpected end of file reading the C3D header"});
  {
    auto b = good;
    b[1] = std::byte{0x51};
    cases.push_back({"key", b, "byte 1: expected the C3D key 0x50 in the second byte, found 0x51"});
  }
  {
    auto b = good;
    b[512 + 3] = std::byte{99};
    cases.push_back(
        {"processor", b, "expected a processor type 84 (Intel), 85 (DEC) or 86 (MIPS), found 99"});
  }
  {
    auto b = good;
    b.resize(b.size() - 10);
    cases.push_back({"truncated data", b, "truncated: 20 frames"});
  }
  {
    auto b = good;
    b.resize(700);
    cases.push_back({"truncated parameters", b, "truncated"});
  }
  {
    C3dSpec spec = walking_subject();
    spec.rate = 0;
    spec.write_rate_parameter = false;
    cases.push_back({"no rate", build_c3d(spec), "expected a positive frame rate"});
  }
  {
    auto b = good;
    b[16] = std::byte{1};  // header word 9: data start block 1
    b[17] = std::byte{0};
    cases.push_back({"data start", b, "expected the data to start after the parameter section"});
  }
  {
    auto b = good;
    b[8] = std::byte{0};  // last frame 0 < first frame 1
    b[9] = std::byte{0};
    cases.push_back({"last frame", b, "expected a last frame >= the first frame"});
  }
  {
    auto b = good;
    b[2] = std::byte{0};  // no points
    b[3] = std::byte{0};
    cases.push_back({"no points", b, "expected at least one 3D point"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string message = input_error_of([&] { parse_c3d(c.bytes, "bad.c3d"); });
    EXPECT_EQ(message.rfind("bad.c3d:byte ", 0), 0u) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace mimic::mocap
