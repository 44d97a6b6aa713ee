// What a joint's name says about it, in every common naming family: the side (Left/Right, L_/R_, _l/_r,
// .L/.R, one-letter prefixes as in the ASF names lhumerus / rradius), the body-part fragments once the
// side and any namespace ("mixamorig:", "Character1|") are removed, and whether the joint is a helper
// (roll / twist joints, MakeHuman's "__" parents) that a landmark should not be placed on.
// skeleton_mapping.cpp uses these to confirm and break ties in what the skeleton's topology shows.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <unordered_set>

namespace mimic::retarget {

enum class Side { kNone, kLeft, kRight };

struct JointName {
  Side side = Side::kNone;
  std::string base;     // lower case, side affix, namespace and separators (_ . - space) removed
  std::string affix;    // the side affix as found ("Left", "L_", ".R", "l" ...); empty without a side
  bool helper = false;  // roll / twist / helper joint, or a "__" MakeHuman parent
};

// `names` are all the joint names of the skeleton: a one-letter side prefix ("lhumerus", "LThumb") counts
// only when the name with the other letter exists, so that "lowerback" or "RootBone" have no side.
JointName parse_joint_name(std::string_view name, const std::unordered_set<std::string>& names);

// True when `base` contains one of `fragments` (each lower case, without separators).
bool has_fragment(const std::string& base, std::span<const std::string_view> fragments);

std::string_view to_string(Side side);  // "left", "right", "none"

}  // namespace mimic::retarget
