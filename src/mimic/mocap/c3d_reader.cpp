// C3D reader: header, parameter section, 3D point data (analog data is stepped over).
//
// Layout (C3D User Guide, Motion Lab Systems): 512-byte blocks. Block 1 is the header, 16-bit words:
// 1 = parameter block number (low byte) and the key 0x50, 2 = number of points, 3 = analog samples per 3D
// frame (all channels together), 4 / 5 = first / last frame number, 7-8 = scale (float), 9 = first data
// block, 11-12 = frame rate (float). The parameter section says which processor wrote the file, and so
// how every number is encoded. Each 3D frame holds, per point, X Y Z and a residual word (int16 times
// POINT:SCALE when the scale is positive, float when it is negative), then the analog samples in the
// same number type. A negative residual marks a sample the system did not see.
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "mimic/core/number_text.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/mocap/c3d_format.hpp"
#include "mimic/mocap/readers.hpp"

namespace mimic::mocap::detail {

namespace {

constexpr std::size_t kBlock = 512;
constexpr std::uint8_t kC3dKey = 0x50;  // second byte of every C3D file
// Bounds of |POINT:SCALE| for integer storage (a coordinate is int16 x scale). Writers use 0.01 .. 1 (file
// units per count); 1e-6 would still resolve a micrometre in metres, and 1e3 already spans +-33 km in
// millimetres. Outside them the file is corrupt and its coordinates meaningless.
constexpr double kMinIntegerScale = 1.0e-6;
constexpr double kMaxIntegerScale = 1.0e3;

// Byte offset of 1-based header word `n`.
std::size_t header_word(int n) { return static_cast<std::size_t>(n - 1) * 2; }

std::string hex(unsigned value) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02X", value & 0xFFu);
  return buffer;
}

std::string strip_subject_prefix(const std::string& label) {
  const std::size_t colon = label.rfind(':');
  return colon == std::string::npos ? label : label.substr(colon + 1);
}

// POINT:LABELS, then LABELS2, LABELS3, ... (writers split long lists into 255-entry parameters).
std::vector<std::string> read_labels(const C3dBytes& bytes, const C3dParameters& parameters,
                                     std::size_t points) {
  std::vector<std::string> labels;
  if (auto first = parameters.strings(bytes, "POINT", "LABELS", true)) labels = std::move(*first);
  for (int k = 2; labels.size() < points && k < 100; ++k) {
    auto more = parameters.strings(bytes, "POINT", "LABELS" + std::to_string(k), true);
    if (!more) break;
    labels.insert(labels.end(), more->begin(), more->end());
  }
  if (labels.size() > points) labels.resize(points);  // Eb015: 48 labels for 26 points
  if (labels.size() < points)
    spdlog::warn("{}: {} point labels for {} points; naming the rest M<n>", bytes.name(), labels.size(),
                 points);
  labels.resize(points);
  for (std::size_t i = 0; i < points; ++i) {
    // Control bytes in a label (a corrupt or binary parameter) are kept as \xNN text, so that every
    // message and `mimic info` prints the label on one line.
    labels[i] = core::escaped_for_message(labels[i], labels[i].size());
    if (labels[i].empty())
      labels[i] = std::string(1, 'M').append(std::to_string(i + 1));  // GCC 12 warns on "M" + s
  }
  return labels;
}

}  // namespace

RawMarkers parse_c3d_markers(std::span<const std::byte> data, const std::string& name) {
  C3dBytes bytes(data, name);
  bytes.require(0, kBlock, "the C3D header (512 bytes)");
  if (bytes.u8(1) != kC3dKey)
    bytes.fail(
        1, "expected the C3D key 0x50 in the second byte, found " + hex(bytes.u8(1)) + ": not a C3D file");

  // The parameter section first: it tells the processor type needed to decode the header's numbers.
  const std::size_t parameter_block = bytes.u8(0);
  if (parameter_block < 2)
    bytes.fail(0, "expected a parameter block number >= 2, found " + std::to_string(parameter_block));
  const std::size_t parameter_start = (parameter_block - 1) * kBlock;
  bytes.require(parameter_start, 4, "the parameter section header");
  const int processor_code = bytes.u8(parameter_start + 3);
  switch (processor_code) {
    case 84:
      bytes.set_processor(C3dProcessor::kIntel);
      break;
    case 85:
      bytes.set_processor(C3dProcessor::kDec);
      break;
    case 86:
      bytes.set_processor(C3dProcessor::kMips);
      break;
    default:
      bytes.fail(parameter_start + 3, "expected a processor type 84 (Intel), 85 (DEC) or 86 (MIPS), found " +
                                          std::to_string(processor_code));
  }

  const std::size_t points = bytes.u16(header_word(2));
  const std::size_t analog_per_frame = bytes.u16(header_word(3));
  const std::size_t header_first_frame = bytes.u16(header_word(4));
  const std::size_t header_last_frame = bytes.u16(header_word(5));
  const double header_scale = bytes.f32(header_word(7));
  const std::size_t header_data_block = bytes.u16(header_word(9));
  const double header_rate = bytes.f32(header_word(11));

  // The parameter section is bounded by its declared size and by the data that follows it.
  const std::size_t declared_blocks = bytes.u8(parameter_start + 2);
  std::size_t parameter_limit = parameter_start + std::max<std::size_t>(declared_blocks, 1) * kBlock;
  if (header_data_block > parameter_block) parameter_limit = (header_data_block - 1) * kBlock;
  const C3dParameters parameters = read_c3d_parameters(bytes, parameter_start, parameter_limit);

  if (auto used = parameters.number(bytes, "POINT", "USED");
      used && static_cast<std::size_t>(static_cast<std::uint16_t>(*used)) != points)
    spdlog::warn("{}: POINT:USED = {} but the header declares {} points; using the header", name, *used,
                 points);

  double scale = header_scale;
  if (auto s = parameters.number(bytes, "POINT", "SCALE"); s && *s != 0.0) scale = *s;
  if (!std::isfinite(scale) || scale == 0.0)
    bytes.fail(header_word(7), "expected a non-zero POINT:SCALE (its sign selects integer or float storage)");
  const bool float_storage = scale < 0.0;
  if (!float_storage && !(scale >= kMinIntegerScale && scale <= kMaxIntegerScale)) {
    bytes.fail(header_word(7), "POINT:SCALE " + core::format_number(scale) + " is outside [" +
                                   core::format_number(kMinIntegerScale) + ", " +
                                   core::format_number(kMaxIntegerScale) +
                                   "] (file units per integer count)");
  }

  double rate = header_rate;
  if (auto r = parameters.number(bytes, "POINT", "RATE"); r && *r > 0.0) rate = *r;  // absent in Xsens files
  if (!std::isfinite(rate) || rate <= 0.0)
    bytes.fail(header_word(11), "expected a positive frame rate in the header or POINT:RATE");

  std::size_t data_block = header_data_block;
  if (data_block == 0)
    if (auto d = parameters.number(bytes, "POINT", "DATA_START"))
      data_block = static_cast<std::uint16_t>(static_cast<std::int16_t>(*d));
  if (data_block <= parameter_block)
    bytes.fail(header_word(9), "expected the data to start after the parameter section, found block " +
                                   std::to_string(data_block));
  const std::size_t data_start = (data_block - 1) * kBlock;

  std::size_t first_frame = header_first_frame, last_frame = header_last_frame;
  // Captures longer than 65535 frames overflow the header's 16-bit frame numbers; writers then give the
  // range in TRIAL:ACTUAL_START_FIELD / ACTUAL_END_FIELD, each two 16-bit words (low, high).
  const auto trial_start = parameters.numbers(bytes, "TRIAL", "ACTUAL_START_FIELD");
  const auto trial_end = parameters.numbers(bytes, "TRIAL", "ACTUAL_END_FIELD");
  if (trial_start && trial_end && trial_start->size() >= 2 && trial_end->size() >= 2) {
    const auto word = [](double v) {
      return static_cast<std::size_t>(static_cast<std::uint16_t>(static_cast<int>(v)));
    };
    const std::size_t start = word((*trial_start)[0]) + 65536 * word((*trial_start)[1]);
    const std::size_t end = word((*trial_end)[0]) + 65536 * word((*trial_end)[1]);
    if (end >= start && start > 0 && end - start > last_frame - std::min(first_frame, last_frame)) {
      first_frame = start;
      last_frame = end;
    }
  }
  if (last_frame < first_frame)
    bytes.fail(header_word(5), "expected a last frame >= the first frame (" + std::to_string(first_frame) +
                                   "), found " + std::to_string(last_frame));
  const std::size_t frames = last_frame - first_frame + 1;

  if (points == 0)
    bytes.fail(header_word(2), "expected at least one 3D point (the file holds no marker data)");
  const std::size_t word = float_storage ? 4 : 2;
  const std::size_t frame_bytes = (points * 4 + analog_per_frame) * word;
  const std::size_t available = data_start < bytes.size() ? bytes.size() - data_start : 0;
  if (frames > available / frame_bytes)
    bytes.fail(data_start, "truncated: " + std::to_string(frames) + " frames of " +
                               std::to_string(frame_bytes) + " bytes declared from here, the file holds " +
                               std::to_string(available / frame_bytes) + " complete frames");
  if (available > frames * frame_bytes + kBlock)
    spdlog::debug("{}: {} bytes after the last frame ignored", name, available - frames * frame_bytes);

  RawMarkers result;
  MarkerClip& clip = result.clip;
  clip.raw_labels = read_labels(bytes, parameters, points);
  for (const std::string& label : clip.raw_labels) clip.labels.push_back(strip_subject_prefix(label));
  clip.rate = rate;
  clip.first_frame = static_cast<int>(first_frame);
  clip.positions.resize(frames * points);
  clip.states.resize(frames * points);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t f = 0; f < frames; ++f) {
    const std::size_t frame_at = data_start + f * frame_bytes;
    for (std::size_t m = 0; m < points; ++m) {
      const std::size_t at = frame_at + m * 4 * word;
      Eigen::Vector3d p;
      double residual;
      if (float_storage) {
        p = {bytes.f32_unchecked(at), bytes.f32_unchecked(at + 4), bytes.f32_unchecked(at + 8)};
        residual = bytes.f32_unchecked(at + 12);
      } else {
        p = {static_cast<std::int16_t>(bytes.u16_unchecked(at)) * scale,
             static_cast<std::int16_t>(bytes.u16_unchecked(at + 2)) * scale,
             static_cast<std::int16_t>(bytes.u16_unchecked(at + 4)) * scale};
        residual = static_cast<std::int16_t>(bytes.u16_unchecked(at + 6));
      }
      const std::size_t i = f * points + m;
      const bool valid = residual >= 0.0 && p.allFinite();
      clip.states[i] = valid ? SampleState::kMeasured : SampleState::kMissing;
      clip.positions[i] = valid ? p : Eigen::Vector3d::Constant(nan);
    }
  }

  if (auto units = parameters.strings(bytes, "POINT", "UNITS"); units && !units->empty()) {
    result.declared_unit = parse_length_unit((*units)[0]);
    if (!result.declared_unit && !(*units)[0].empty())
      spdlog::warn("{}: POINT:UNITS '{}' not understood; guessing the unit from the marker heights", name,
                   (*units)[0]);
  }
  spdlog::debug("{}: C3D {} {}, {} points, {} frames from {}, {} Hz, {} analog samples per frame", name,
                to_string(bytes.processor()), float_storage ? "float" : "int", points, frames, first_frame,
                rate, analog_per_frame);
  return result;
}

}  // namespace mimic::mocap::detail
