#include "mimic/retarget/joint_names.hpp"

#include <array>
#include <cctype>

namespace mimic::retarget {

namespace {

bool is_separator(char c) { return c == '_' || c == '.' || c == '-' || c == ' '; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

std::string_view without_namespace(std::string_view name) {
  const auto cut = name.find_last_of(":|");
  return cut == std::string_view::npos ? name : name.substr(cut + 1);
}

std::string normalized(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!is_separator(c)) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

Side side_of_letter(char c) {
  if (c == 'L' || c == 'l') return Side::kLeft;
  if (c == 'R' || c == 'r') return Side::kRight;
  return Side::kNone;
}

// The full name with the side letter at `pos` swapped, to test that the mirror joint exists.
bool mirror_exists(std::string_view full, std::size_t pos, const std::unordered_set<std::string>& names) {
  std::string mirror(full);
  const char c = mirror[pos];
  mirror[pos] = c == 'L' ? 'R' : c == 'R' ? 'L' : c == 'l' ? 'r' : 'l';
  return names.contains(mirror);
}

}  // namespace

JointName parse_joint_name(std::string_view name, const std::unordered_set<std::string>& names) {
  JointName out;
  std::string_view n = without_namespace(name);
  out.helper = n.starts_with("__");
  while (n.starts_with("_")) n.remove_prefix(1);
  std::string stem(n);

  // "Left"/"Right" anywhere (LeftUpLeg, HandLeft, left_knee), then separated single letters at either end
  // (L_Knee, upper_arm.L, thigh_r, Knee-R), then one-letter prefixes when the mirror name exists.
  static constexpr std::array<std::pair<std::string_view, Side>, 6> kWords = {{{"Left", Side::kLeft},
                                                                               {"left", Side::kLeft},
                                                                               {"LEFT", Side::kLeft},
                                                                               {"Right", Side::kRight},
                                                                               {"right", Side::kRight},
                                                                               {"RIGHT", Side::kRight}}};
  for (const auto& [word, side] : kWords) {
    if (const auto pos = stem.find(word); pos != std::string::npos) {
      out.side = side;
      out.affix = word;
      stem.erase(pos, word.size());
      break;
    }
  }
  if (out.side == Side::kNone && stem.size() >= 3) {
    if (is_separator(stem[1]) && side_of_letter(stem[0]) != Side::kNone) {
      out.side = side_of_letter(stem[0]);
      out.affix = stem.substr(0, 2);
      stem.erase(0, 2);
    } else if (is_separator(stem[stem.size() - 2]) && side_of_letter(stem.back()) != Side::kNone) {
      out.side = side_of_letter(stem.back());
      out.affix = stem.substr(stem.size() - 2);
      stem.erase(stem.size() - 2);
    } else if (side_of_letter(stem[0]) != Side::kNone &&
               (is_upper(stem[1]) || std::islower(static_cast<unsigned char>(stem[1]))) &&
               mirror_exists(name, static_cast<std::size_t>(n.data() - name.data()), names)) {
      out.side = side_of_letter(stem[0]);
      out.affix = stem.substr(0, 1);
      stem.erase(0, 1);
    }
  }
  out.base = normalized(stem);
  static constexpr std::array<std::string_view, 5> kHelpers = {"twist", "roll", "helper", "share", "adjust"};
  out.helper = out.helper || has_fragment(out.base, kHelpers);
  return out;
}

bool has_fragment(const std::string& base, std::span<const std::string_view> fragments) {
  for (std::string_view f : fragments) {
    if (base.find(f) != std::string::npos) return true;
  }
  return false;
}

std::string_view to_string(Side side) {
  return side == Side::kLeft ? "left" : side == Side::kRight ? "right" : "none";
}

}  // namespace mimic::retarget
