// BVH (Biovision hierarchy) reader. One pass over the text in memory: a small tokenizer for the
// HIERARCHY section (which is tiny) and a tight row loop with std::from_chars for the MOTION section
// (which is everything else), so that reading runs at hundreds of MB/s.
//
// Dialects accepted, as found in files from the wild (see ../shared/mocap/README.md):
// per-joint channel order, 0..6 channels on any joint, End Site blocks, tabs and any spacing, blank lines
// anywhere, LF / CRLF / CR and mixed line endings, "Frame Time: .0083333", trailing spaces, a data row
// count that differs from "Frames:" (the rows win, with a warning). Exactly one ROOT per file.
#include <spdlog/spdlog.h>

#include <charconv>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/mocap/readers.hpp"

namespace mimic::mocap::detail {

namespace {

// The largest magnitude of an OFFSET coordinate or a channel value. Lengths: 1e6 is 1 km in millimetres,
// far beyond any capture volume in any unit; angles: 1e6 degrees is 2,800 turns, far beyond the unwrapped
// yaw of any clip. A larger value is a corrupt file (1e308 would overflow to infinity as soon as the
// pipeline squares it).
constexpr double kMaxMagnitude = 1.0e6;
// Frame Time bounds, s. 1e-4 s is a 10 kHz capture, above any optical or inertial system (they run at
// 30..2000 Hz); 10 s per frame is slower than any capture or keyframe export. Outside them the file is
// corrupt: 1e-300 made a 0 s clip, 1e300 an unbounded resampling.
constexpr double kMinFrameTime = 1.0e-4;
constexpr double kMaxFrameTime = 10.0;

bool is_horizontal_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
bool is_line_break(char c) { return c == '\n' || c == '\r'; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    const char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

// Quotes a token for an error message, shortened so that a binary file does not flood the terminal.
std::string quoted(std::string_view token) {
  if (token.empty()) return "end of file";
  std::string out = "'";
  for (char c : token.substr(0, 40)) out += (static_cast<unsigned char>(c) < 32 || c == 127) ? '?' : c;
  if (token.size() > 40) out += "...";
  return out + "'";
}

class BvhParser {
 public:
  BvhParser(std::string_view text, const std::string& name)
      : p_(text.data()), end_(text.data() + text.size()), name_(name) {}

  SkeletonClip parse() {
    SkeletonClip clip;
    expect_keyword("HIERARCHY");
    parse_hierarchy(clip);
    parse_motion(clip);
    return clip;
  }

 private:
  const char* p_;
  const char* end_;
  const std::string& name_;
  int line_ = 1;

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(input_error_message(name_, "line " + std::to_string(line), what));
  }

  // Advances over one line break ("\n", "\r\n" or a lone "\r") at p_, counting it.
  void consume_line_break() {
    if (*p_ == '\r' && p_ + 1 < end_ && p_[1] == '\n') ++p_;
    ++p_;
    ++line_;
  }

  void skip_whitespace() {
    while (p_ < end_) {
      if (is_horizontal_space(*p_))
        ++p_;
      else if (is_line_break(*p_))
        consume_line_break();
      else
        break;
    }
  }

  void skip_horizontal_space() {
    while (p_ < end_ && is_horizontal_space(*p_)) ++p_;
  }

  // Next whitespace-delimited token; '{' and '}' are tokens on their own even when glued to a word.
  // Empty at end of file.
  std::string_view next_token() {
    skip_whitespace();
    const char* start = p_;
    if (p_ < end_ && (*p_ == '{' || *p_ == '}')) return {p_++, 1};
    while (p_ < end_ && !is_horizontal_space(*p_) && !is_line_break(*p_) && *p_ != '{' && *p_ != '}') ++p_;
    return {start, static_cast<std::size_t>(p_ - start)};
  }

  // The rest of the current line, trimmed, stopping before a '{' (joint names may contain spaces).
  std::string_view rest_of_line_name() {
    skip_horizontal_space();
    const char* start = p_;
    while (p_ < end_ && !is_line_break(*p_) && *p_ != '{') ++p_;
    const char* stop = p_;
    while (stop > start && is_horizontal_space(stop[-1])) --stop;
    return {start, static_cast<std::size_t>(stop - start)};
  }

  void expect_keyword(std::string_view keyword) {
    const std::string_view token = next_token();
    if (!iequals(token, keyword))
      fail(line_, "expected '" + std::string(keyword) + "', found " + quoted(token));
  }

  double parse_number(std::string_view token, const char* what) {
    std::string_view t = token;
    // from_chars takes no '+'; strip one, but only before a digit or '.' ("+-1" must not read as -1).
    if (t.starts_with('+') && !t.starts_with("+-")) t.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (t.empty() || ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(value))
      fail(line_, std::string("expected ") + what + ", found " + quoted(token));
    return value;
  }

  int parse_count(std::string_view token, const char* what, int max) {
    int value = -1;
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || ec != std::errc() || ptr != token.data() + token.size() || value < 0 || value > max)
      fail(line_, std::string("expected ") + what + ", found " + quoted(token));
    return value;
  }

  static std::optional<ChannelType> channel_from_name(std::string_view token) {
    static constexpr std::string_view kNames[] = {"Xposition", "Yposition", "Zposition",
                                                  "Xrotation", "Yrotation", "Zrotation"};
    for (int i = 0; i < 6; ++i)
      if (iequals(token, kNames[i])) return static_cast<ChannelType>(i);
    return std::nullopt;
  }

  Eigen::Vector3d parse_offset() {
    Eigen::Vector3d offset;
    for (int k = 0; k < 3; ++k) {
      offset[k] = parse_number(next_token(), "an OFFSET coordinate");
      if (std::abs(offset[k]) > kMaxMagnitude)
        fail(line_, "OFFSET coordinate " + core::format_number(offset[k]) + " is beyond +-" +
                        core::format_number(kMaxMagnitude) + " (1 km in millimetres): a corrupt file?");
    }
    return offset;
  }

  void parse_hierarchy(SkeletonClip& clip) {
    expect_keyword("ROOT");
    // Iterative descent (an explicit stack of open blocks) so that a corrupt file with absurd nesting
    // cannot overflow the call stack.
    struct Open {
      int joint;
      bool has_offset = false;
      bool has_channels = false;
      int end_sites = 0;  // End Sites opened in this joint so far
    };
    std::vector<Open> open;
    int channel_count = 0;

    auto open_joint = [&](std::string_view joint_name, int parent, bool end_site) {
      if (joint_name.empty()) fail(line_, "expected a joint name");
      Joint joint;
      // Control bytes (a binary file read as BVH) are kept as \xNN text, so that messages and `mimic info`
      // print every name on one line.
      joint.name = core::escaped_for_message(joint_name, joint_name.size());
      joint.parent = parent;
      joint.end_site = end_site;
      joint.first_channel = channel_count;
      clip.joints.push_back(std::move(joint));
      const std::string_view brace = next_token();
      if (brace != "{")
        fail(line_, "expected '{' after " + std::string(end_site ? "End Site" : "the joint name") +
                        ", found " + quoted(brace));
      open.push_back({static_cast<int>(clip.joints.size()) - 1});
    };

    open_joint(rest_of_line_name(), -1, false);
    while (!open.empty()) {
      const std::string_view token = next_token();
      Open& current = open.back();
      Joint& joint = clip.joints[current.joint];
      if (token == "}") {
        if (!current.has_offset) fail(line_, "expected OFFSET in joint '" + joint.name + "' before '}'");
        open.pop_back();
      } else if (iequals(token, "OFFSET")) {
        if (current.has_offset) fail(line_, "expected one OFFSET per joint ('" + joint.name + "' has two)");
        joint.offset = parse_offset();
        current.has_offset = true;
      } else if (iequals(token, "CHANNELS")) {
        if (joint.end_site) fail(line_, "expected no CHANNELS in an End Site");
        if (current.has_channels)
          fail(line_, "expected one CHANNELS line per joint ('" + joint.name + "' has two)");
        const int n = parse_count(next_token(), "a channel count 0..6", 6);
        for (int c = 0; c < n; ++c) {
          const std::string_view channel_name = next_token();
          const auto channel = channel_from_name(channel_name);
          if (!channel)
            fail(line_, "expected a channel name (Xposition .. Zrotation), found " + quoted(channel_name));
          joint.channels.push_back(*channel);
        }
        joint.first_channel = channel_count;
        channel_count += n;
        current.has_channels = true;
      } else if (iequals(token, "JOINT")) {
        if (joint.end_site) fail(line_, "expected only OFFSET in an End Site, found JOINT");
        open_joint(rest_of_line_name(), current.joint, false);
      } else if (iequals(token, "End")) {
        if (joint.end_site) fail(line_, "expected only OFFSET in an End Site, found another End Site");
        const std::string_view site = next_token();
        if (!iequals(site, "Site")) fail(line_, "expected 'Site' after 'End', found " + quoted(site));
        rest_of_line_name();  // some exporters name the site ("End Site LeftToe_end"): not needed
        // Several End Sites under one joint (e.g. the fingertips of a hand without finger joints) need
        // distinct names for presets and FK lookups: <parent>_End, <parent>_End2, <parent>_End3, ...
        const int site_number = ++current.end_sites;
        const std::string site_name =
            joint.name + "_End" + (site_number > 1 ? std::to_string(site_number) : std::string());
        open_joint(site_name, current.joint, true);
      } else {
        fail(line_, "expected OFFSET, CHANNELS, JOINT, End Site or '}', found " + quoted(token));
      }
    }
    if (clip.joints.size() > 0 && channel_count == 0) spdlog::warn("{}: skeleton has no channels", name_);
    clip.values.resize(0, channel_count);
  }

  void parse_motion(SkeletonClip& clip) {
    std::string_view token = next_token();
    if (iequals(token, "ROOT"))
      fail(line_, "expected MOTION, found a second ROOT: mimic reads one skeleton per file (split the file)");
    if (!iequals(token, "MOTION")) fail(line_, "expected MOTION after the hierarchy, found " + quoted(token));

    // "Frames: N" (also "Frames:N").
    token = next_token();
    std::string_view value;
    if (token.size() > 7 && iequals(token.substr(0, 7), "Frames:"))
      value = token.substr(7);
    else if (iequals(token, "Frames:"))
      value = next_token();
    else
      fail(line_, "expected 'Frames:', found " + quoted(token));
    const int declared_frames = parse_count(value, "a frame count", 100'000'000);

    // "Frame Time: t" (also "Frame Time:t").
    expect_keyword("Frame");
    token = next_token();
    if (token.size() > 5 && iequals(token.substr(0, 5), "Time:"))
      value = token.substr(5);
    else if (iequals(token, "Time:"))
      value = next_token();
    else
      fail(line_, "expected 'Time:' after 'Frame', found " + quoted(token));
    clip.frame_time = parse_number(value, "a frame time in seconds");
    if (!(clip.frame_time >= kMinFrameTime && clip.frame_time <= kMaxFrameTime)) {
      fail(line_, "Frame Time " + quoted(value) + " is outside [" + core::format_number(kMinFrameTime) +
                      ", " + core::format_number(kMaxFrameTime) + "] s (10 kHz .. 0.1 Hz)");
    }

    skip_horizontal_space();
    if (p_ < end_ && !is_line_break(*p_))
      fail(line_, "expected the end of the 'Frame Time' line, found " + quoted(next_token()));

    read_rows(clip, declared_frames);
  }

  // The hot loop: one row of numbers per line.
  void read_rows(SkeletonClip& clip, int declared_frames) {
    constexpr double kDegrees = std::numbers::pi / 180.0;
    const std::size_t columns = static_cast<std::size_t>(clip.values.cols());
    // Reserve for the declared frames, but never more than the text could hold (a corrupt header must
    // not trigger a huge allocation): each value takes at least two characters.
    const std::size_t max_rows = columns == 0 ? 0 : static_cast<std::size_t>(end_ - p_) / (2 * columns) + 1;
    std::vector<double> data;
    data.reserve(std::min<std::size_t>(static_cast<std::size_t>(declared_frames), max_rows) * columns);

    std::size_t rows = 0;
    while (p_ < end_) {
      skip_horizontal_space();
      if (p_ == end_) break;
      if (is_line_break(*p_)) {
        consume_line_break();
        continue;
      }
      const std::size_t base = data.size();
      data.resize(base + columns);
      std::size_t count = 0;
      while (true) {
        const char* start = p_;
        if (*p_ == '+' && p_ + 1 < end_ && p_[1] != '-') ++p_;  // "+-1" is an error, not -1
        double v = 0.0;
        const auto [ptr, ec] = std::from_chars(p_, end_, v);
        if (ec != std::errc() || !(std::abs(v) <= kMaxMagnitude)) {
          p_ = start;
          std::string_view bad = next_token();
          const bool number = ec == std::errc() && std::isfinite(v);
          fail(line_, std::string("expected a number") +
                          (number ? " within +-" + core::format_number(kMaxMagnitude) : std::string()) +
                          " (channel value " + std::to_string(count + 1) + " of " + std::to_string(columns) +
                          " in frame " + std::to_string(rows + 1) + "), found " + quoted(bad));
        }
        p_ = ptr;
        if (count < columns) data[base + count] = v;
        ++count;
        skip_horizontal_space();
        if (p_ == end_ || is_line_break(*p_)) break;
        if (ptr == p_) {  // "1.0abc": the number ran straight into something else
          fail(line_, "expected a separator after a number in frame " + std::to_string(rows + 1) +
                          ", found " + quoted(next_token()));
        }
      }
      if (count != columns)
        fail(line_, "expected " + std::to_string(columns) + " channel values in frame " +
                        std::to_string(rows + 1) + ", found " + std::to_string(count));
      ++rows;
    }
    if (columns == 0) rows = static_cast<std::size_t>(declared_frames);  // nothing to read per frame
    if (rows == 0) fail(line_, "expected at least one frame of motion data after 'Frame Time'");
    if (rows != static_cast<std::size_t>(declared_frames))
      spdlog::warn("{}: 'Frames: {}' but the file holds {} data rows; using the {} rows", name_,
                   declared_frames, rows, rows);

    clip.values.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(columns));
    if (columns == 0) return;
    // Degrees -> radians for the rotation columns.
    std::vector<double> factor(columns, 1.0);
    for (const Joint& joint : clip.joints)
      for (std::size_t c = 0; c < joint.channels.size(); ++c)
        if (is_rotation(joint.channels[c])) factor[joint.first_channel + c] = kDegrees;
    double* out = clip.values.data();
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < columns; ++c) out[r * columns + c] = data[r * columns + c] * factor[c];
  }
};

}  // namespace

SkeletonClip parse_bvh_skeleton(std::string_view text, const std::string& name) {
  return BvhParser(core::without_utf8_bom(text), name).parse();
}

}  // namespace mimic::mocap::detail
