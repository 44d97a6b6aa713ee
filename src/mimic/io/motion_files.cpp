#include "mimic/io/motion_files.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mimic/core/atomic_file.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/sample_table.hpp"

namespace fs = std::filesystem;

namespace mimic::io {
namespace {

constexpr double kReadTimeTolerance = 1e-6;  // s; other tools print times with as few as 7 digits
constexpr std::array<const char*, 4> kExtensions = {".pos", ".waist", ".hip", ".zmp"};

bool file_exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// The first sample whose time differs from the .pos time by more than `tolerance`, if any.
std::optional<std::size_t> first_time_mismatch(const std::vector<double>& times,
                                               const std::vector<double>& reference, double tolerance) {
  for (std::size_t k = 0; k < std::min(times.size(), reference.size()); ++k) {
    if (!(std::abs(times[k] - reference[k]) <= tolerance)) return k;
  }
  return std::nullopt;
}

// Sequence files carry no line numbers once parsed; the k-th sample of a file we read is on the k-th
// non-blank line, which is what we report.
int line_of_sample(const std::string& text, std::size_t sample) {
  int line = 0;
  std::size_t seen = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++line;
    if (text.find_first_not_of(" \t\r\v\f", start) < end && seen++ == sample) return line;
    start = end + 1;
  }
  return line;
}

void check_times_on_read(const std::string& file, const std::string& text, const std::vector<double>& times,
                         const std::string& pos_file, const std::vector<double>& pos_times) {
  if (const auto k = first_time_mismatch(times, pos_times, kReadTimeTolerance)) {
    throw InputError(input_error_message(file, "line " + std::to_string(line_of_sample(text, *k)),
                                         "time " + core::format_number(times[*k]) + " differs from " +
                                             pos_file + "'s " + core::format_number(pos_times[*k]) +
                                             " for sample " + std::to_string(*k + 1) +
                                             "; every file of a motion needs the same times"));
  }
  if (times.size() != pos_times.size()) {
    throw InputError(input_error_message(file, "",
                                         std::to_string(times.size()) + " samples, but " + pos_file +
                                             " has " + std::to_string(pos_times.size()) +
                                             "; every file of a motion needs the same times"));
  }
}

void check_times_on_write(const fs::path& path, const std::vector<double>& times,
                          const std::vector<double>& pos_times) {
  // Written from the same clock as the .pos, so the times must agree to the printed nanosecond.
  const auto k = first_time_mismatch(times, pos_times, 1e-9);
  if (times.size() != pos_times.size() || k) {
    throw std::invalid_argument(path.string() + ": its times differ from the .pos times" +
                                (k ? " at sample " + std::to_string(*k + 1) : std::string(" in length")));
  }
}

}  // namespace

fs::path motion_base(const fs::path& path) {
  for (const char* extension : kExtensions) {
    if (path.extension() == extension) {
      fs::path base = path;
      return base.replace_extension();
    }
  }
  return path;
}

fs::path motion_file(const fs::path& base, const char* extension) {
  fs::path file = base;
  file += extension;
  return file;
}

MotionFiles read_motion(const fs::path& base_or_file, PosColumns columns, const PosLayout& layout) {
  const fs::path base = motion_base(base_or_file);
  const std::string pos_file = motion_file(base, ".pos").string();
  MotionFiles motion;
  motion.pos = parse_pos(core::read_text_file(pos_file), pos_file, columns, layout);

  const auto read_companion = [&](const char* extension, auto parse) {
    const std::string file = motion_file(base, extension).string();
    const std::string text = core::read_text_file(file);
    auto sequence = parse(text, file);
    check_times_on_read(file, text, sequence.times, pos_file, motion.pos.times);
    return sequence;
  };
  const fs::path hip = motion_file(base, ".hip");
  const fs::path waist = motion_file(base, ".waist");
  if (file_exists(hip)) {
    motion.hip = read_companion(".hip", parse_hip);
    if (file_exists(waist)) {
      spdlog::warn("{}: ignored, as hrpsys does, because {} exists", waist.string(), hip.string());
    }
  } else if (file_exists(waist)) {
    motion.waist = read_companion(".waist", parse_waist);
  }
  if (file_exists(motion_file(base, ".zmp"))) motion.zmp = read_companion(".zmp", parse_zmp);
  return motion;
}

void write_motion(const fs::path& base_or_file, const MotionFiles& motion, const PosWriteOptions& options,
                  const PosLayout& layout) {
  const fs::path base = motion_base(base_or_file);
  if (motion.waist && motion.hip) {
    throw std::invalid_argument(base.string() +
                                ": a motion has a .waist or a .hip, not both (hrpsys "
                                "would ignore the .waist)");
  }
  // Format everything first, so that a value hrpsys cannot play stops the write before any file exists.
  struct Output {
    fs::path path;
    std::string text;
  };
  std::vector<Output> outputs;
  const fs::path pos_path = motion_file(base, ".pos");
  outputs.push_back({pos_path, format_pos(motion.pos, pos_path.string(), options, layout)});
  const auto add = [&](const char* extension, const auto& sequence, auto format) {
    const fs::path path = motion_file(base, extension);
    check_times_on_write(path, sequence.times, motion.pos.times);
    outputs.push_back({path, format(sequence, path.string())});
  };
  if (motion.waist) add(".waist", *motion.waist, format_waist);
  if (motion.hip) add(".hip", *motion.hip, format_hip);
  if (motion.zmp) add(".zmp", *motion.zmp, format_zmp);

  AtomicFileGroup group;
  for (const auto& output : outputs) {
    group.add(output.path,
              [&](std::ostream& out) { out.write(output.text.data(), std::ssize(output.text)); });
  }
  group.commit();

  for (const char* extension : {".waist", ".hip", ".zmp"}) {
    const fs::path path = motion_file(base, extension);
    const bool written =
        std::any_of(outputs.begin(), outputs.end(), [&](const Output& o) { return o.path == path; });
    std::error_code ec;
    if (!written && fs::exists(path, ec)) {
      fs::remove(path, ec);
      if (ec) {
        throw OutputError(path.string() +
                          ": cannot remove this file left from an earlier run (hrpsys would "
                          "play it with the new motion): " +
                          ec.message());
      }
      spdlog::warn("{}: removed (left from an earlier run; not part of this motion)", path.string());
    }
  }
}

}  // namespace mimic::io
