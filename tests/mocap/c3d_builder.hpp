// Writes small C3D files in memory for the reader tests: any processor type (Intel / DEC / MIPS), integer
// or float storage, analog channels, split label lists and the malformations seen in real files.
#pragma once

#include <Eigen/Core>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mimic::test {

struct C3dSpec {
  int processor = 84;  // 84 Intel, 85 DEC, 86 MIPS
  bool float_storage = true;
  double scale = 0.1;  // |POINT:SCALE| (units per integer step)
  int first_frame = 1;
  double rate = 100.0;
  bool write_rate_parameter = true;
  std::string units = "mm";  // empty: no POINT:UNITS
  std::vector<std::string> labels;
  std::size_t labels_per_parameter = 255;  // split into LABELS, LABELS2, ... beyond this
  std::size_t extra_labels = 0;            // labels declared beyond the point count (Eb015 has 48 for 26)
  int analog_channels = 0;
  int analog_samples_per_frame = 0;  // per channel
  // positions[frame][point], in file units; valid[frame][point] false writes residual -1.
  std::vector<std::vector<Eigen::Vector3d>> positions;
  std::vector<std::vector<bool>> valid;
  std::size_t trailing_bytes = 0;
  bool data_start_only_in_parameter = false;    // header word 9 = 0
  bool truncate_names_to_six = false;           // DATA_START written as "DATA_S"
  bool lock_parameters = false;                 // negative name lengths
  bool omit_labels_description_length = false;  // the OptiTrack mocap36.c3d malformation
  bool write_trial_range = false;  // TRIAL:ACTUAL_START/END_FIELD; header frame numbers capped at 65535
};

class C3dWriter {
 public:
  explicit C3dWriter(int processor) : processor_(processor) {}
  std::vector<std::byte> bytes;

  void u8(unsigned v) { bytes.push_back(static_cast<std::byte>(v & 0xFF)); }
  void u16(unsigned v) {
    if (processor_ == 86) {
      u8(v >> 8);
      u8(v);
    } else {
      u8(v);
      u8(v >> 8);
    }
  }
  void i16(int v) { u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(v))); }
  void f32(double v) {
    if (processor_ == 85) {
      // DEC VAX F: the IEEE bit pattern of 4v with its 16-bit halves swapped, each half little-endian.
      const std::uint32_t bits = std::bit_cast<std::uint32_t>(static_cast<float>(v * 4.0));
      u8(bits >> 16);
      u8(bits >> 24);
      u8(bits);
      u8(bits >> 8);
      return;
    }
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    if (processor_ == 86) {
      u8(bits >> 24);
      u8(bits >> 16);
      u8(bits >> 8);
      u8(bits);
    } else {
      u8(bits);
      u8(bits >> 8);
      u8(bits >> 16);
      u8(bits >> 24);
    }
  }
  void text(const std::string& s) {
    for (char c : s) u8(static_cast<unsigned char>(c));
  }
  void pad_to_block() {
    while (bytes.size() % 512) u8(0);
  }
  void put_u16_at(std::size_t at, unsigned v) {
    C3dWriter w(processor_);
    w.u16(v);
    bytes[at] = w.bytes[0];
    bytes[at + 1] = w.bytes[1];
  }

 private:
  int processor_;
};

// One parameter record's payload.
struct C3dParam {
  int group;
  std::string name;
  int type;
  std::vector<int> dims;
  std::vector<std::byte> data;
  bool omit_description_length = false;
};

inline std::vector<std::byte> build_c3d(const C3dSpec& spec) {
  const int points = static_cast<int>(spec.labels.size());
  const int frames = static_cast<int>(spec.positions.size());
  const double signed_scale = spec.float_storage ? -spec.scale : spec.scale;
  const int analog_per_frame = spec.analog_channels * spec.analog_samples_per_frame;

  auto encoded = [&](auto fill) {
    C3dWriter w(spec.processor);
    fill(w);
    return w.bytes;
  };
  auto char_array = [&](const std::vector<std::string>& items, std::size_t length) {
    return encoded([&](C3dWriter& w) {
      for (const auto& s : items) w.text((s + std::string(length, ' ')).substr(0, length));
    });
  };

  // Parameters.
  std::vector<C3dParam> params;
  params.push_back({1, "USED", 2, {}, encoded([&](C3dWriter& w) { w.i16(points); })});
  params.push_back({1, "SCALE", 4, {}, encoded([&](C3dWriter& w) { w.f32(signed_scale); })});
  if (spec.write_rate_parameter)
    params.push_back({1, "RATE", 4, {}, encoded([&](C3dWriter& w) { w.f32(spec.rate); })});
  params.push_back({1, "FRAMES", 2, {}, encoded([&](C3dWriter& w) { w.i16(frames); })});
  if (!spec.units.empty())
    params.push_back(
        {1, "UNITS", -1, {static_cast<int>(spec.units.size())}, char_array({spec.units}, spec.units.size())});
  std::vector<std::string> all_labels = spec.labels;
  for (std::size_t i = 0; i < spec.extra_labels; ++i) all_labels.push_back("EXTRA" + std::to_string(i));
  std::size_t label_length = 4;
  for (const auto& l : all_labels) label_length = std::max(label_length, l.size());
  for (std::size_t start = 0, k = 1; start < all_labels.size(); start += spec.labels_per_parameter, ++k) {
    const std::size_t end = std::min(all_labels.size(), start + spec.labels_per_parameter);
    std::vector<std::string> part(all_labels.begin() + start, all_labels.begin() + end);
    C3dParam p{1,
               k == 1 ? "LABELS" : "LABELS" + std::to_string(k),
               -1,
               {static_cast<int>(label_length), static_cast<int>(part.size())},
               char_array(part, label_length)};
    p.omit_description_length = spec.omit_labels_description_length && k == 1;
    params.push_back(p);
  }
  if (spec.analog_channels > 0) {
    params.push_back({2, "USED", 2, {}, encoded([&](C3dWriter& w) { w.i16(spec.analog_channels); })});
    params.push_back(
        {2, "RATE", 4, {}, encoded([&](C3dWriter& w) { w.f32(spec.rate * spec.analog_samples_per_frame); })});
  }
  if (spec.write_trial_range) {
    auto field = [&](long value) {
      return encoded([&](C3dWriter& w) {
        w.u16(static_cast<unsigned>(value & 0xFFFF));
        w.u16(static_cast<unsigned>(value >> 16));
      });
    };
    params.push_back({3, "ACTUAL_START_FIELD", 2, {2}, field(spec.first_frame)});
    params.push_back(
        {3, "ACTUAL_END_FIELD", 2, {2}, field(static_cast<long>(spec.first_frame) + frames - 1)});
  }
  const std::size_t data_start_param = params.size();
  params.push_back(
      {1, spec.truncate_names_to_six ? "DATA_S" : "DATA_START", 2, {}, {}});  // value patched below

  // Parameter section: header, POINT and ANALOG groups, parameters.
  C3dWriter section(spec.processor);
  auto write_name = [&](const std::string& name, int id) {
    const int length = static_cast<int>(name.size());
    section.u8(static_cast<unsigned>(static_cast<std::int8_t>(spec.lock_parameters ? -length : length)));
    section.u8(static_cast<unsigned>(static_cast<std::int8_t>(id)));
    section.text(name);
  };
  section.u8(1);
  section.u8(0x50);
  section.u8(0);  // block count, patched
  section.u8(static_cast<unsigned>(spec.processor));
  std::size_t data_start_value_at = 0;
  std::vector<std::pair<std::string, int>> groups = {{"POINT", 1}};
  if (spec.analog_channels > 0) groups.push_back({"ANALOG", 2});
  if (spec.write_trial_range) groups.push_back({"TRIAL", 3});
  for (const auto& [name, id] : groups) {
    write_name(name, -id);
    section.u16(2 + 1 + 5);
    section.u8(5);
    section.text("group");
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    const C3dParam& p = params[i];
    write_name(p.name, p.group);
    const std::size_t size = p.data.empty() && p.type == 2 ? 2 : p.data.size();
    const std::size_t description = p.omit_description_length ? 0 : 1 + 4;
    const bool last = i + 1 == params.size();
    section.u16(last ? 0 : static_cast<unsigned>(2 + 2 + p.dims.size() + size + description));
    section.u8(static_cast<unsigned>(static_cast<std::int8_t>(p.type)));
    section.u8(static_cast<unsigned>(p.dims.size()));
    for (int d : p.dims) section.u8(static_cast<unsigned>(d));
    if (i == data_start_param) {
      data_start_value_at = section.bytes.size();
      section.i16(0);
    } else {
      section.bytes.insert(section.bytes.end(), p.data.begin(), p.data.end());
    }
    if (!p.omit_description_length) {
      section.u8(4);
      section.text("desc");
    }
  }
  section.u8(0);
  section.u8(0);
  section.pad_to_block();
  const int parameter_blocks = static_cast<int>(section.bytes.size() / 512);
  const int data_block = 2 + parameter_blocks;
  section.bytes[2] = static_cast<std::byte>(parameter_blocks);
  section.put_u16_at(data_start_value_at, static_cast<unsigned>(data_block));

  // Header.
  C3dWriter out(spec.processor);
  out.u8(2);
  out.u8(0x50);
  out.u16(static_cast<unsigned>(points));
  out.u16(static_cast<unsigned>(analog_per_frame));
  const long last_frame = static_cast<long>(spec.first_frame) + frames - 1;
  out.u16(
      static_cast<unsigned>(spec.write_trial_range ? std::min(spec.first_frame, 65535) : spec.first_frame));
  out.u16(static_cast<unsigned>(spec.write_trial_range ? std::min(last_frame, 65535L) : last_frame));
  out.u16(10);
  out.f32(signed_scale);
  out.u16(spec.data_start_only_in_parameter ? 0 : static_cast<unsigned>(data_block));
  out.u16(static_cast<unsigned>(spec.analog_samples_per_frame));
  out.f32(spec.rate);
  out.pad_to_block();
  out.bytes.insert(out.bytes.end(), section.bytes.begin(), section.bytes.end());

  // Data.
  for (int f = 0; f < frames; ++f) {
    for (int m = 0; m < points; ++m) {
      const bool ok = spec.valid.empty() || spec.valid[f][m];
      const Eigen::Vector3d p = ok ? spec.positions[f][m] : Eigen::Vector3d::Zero();
      for (int k = 0; k < 3; ++k) {
        if (spec.float_storage)
          out.f32(p[k]);
        else
          out.i16(static_cast<int>(std::lround(p[k] / spec.scale)));
      }
      if (spec.float_storage)
        out.f32(ok ? 0.0 : -1.0);
      else
        out.i16(ok ? 0 : -1);
    }
    for (int a = 0; a < analog_per_frame; ++a) {
      if (spec.float_storage)
        out.f32(1000.0 + a);
      else
        out.i16(-1000 - a);  // negative on purpose: must never be taken for a residual
    }
  }
  for (std::size_t i = 0; i < spec.trailing_bytes; ++i) out.u8(0xAB);
  return out.bytes;
}

}  // namespace mimic::test
