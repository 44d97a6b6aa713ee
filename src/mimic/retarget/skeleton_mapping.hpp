// Automatic landmark mapping of a BVH skeleton that no preset knows: the landmarks are found from the
// tree's topology, with the joint names (joint_names.hpp) and the pose's geometry to confirm and to break
// ties. The result has the same shape as a preset's (a SelectedPreset named "automatic"), so everything
// downstream is unchanged; each landmark carries a line saying how it was decided.
//
// The rules, in order:
//  1. Limb ends. Leaves are the joints without children (an End Site of zero length does not count: it
//     adds no point). Leaves closer than a quarter of the body height to their common ancestor (straight
//     line in the rest pose, and within half the height along the bones) form one limb end (the fingers of a
//     hand, the toes of a foot, the eyes and jaw of a head). The five limb ends farthest from the root along
//     the bones are the head, hands and feet; a sixth of similar length (> 85 % of the fifth) makes the
//     skeleton ambiguous, fewer than five is an error.
//  2. Legs and upper body. The two feet are the only pair whose common ancestor (the pelvis) lies outside
//     the common ancestor of the three others (the chest, where both arms and the neck branch, which must
//     be strictly below the common ancestor of all five). The pelvis must be below the chest and above
//     the feet in the rest pose (else the tree is not an upright humanoid). Of the three upper ends, the
//     head is the one nearest the chest along the bones (arms are longer); names break a near tie.
//  3. Sides. Each pair of limbs is told left from right by the side affixes of its joints' names and by
//     the pose at frame 0: the side of the body's sagittal plane, with forward from the toes (ankle to
//     toe) or else the forward axis the reader detected. Names win when both speak and disagree (noted).
//  4. Along a chain. Neck: the first joint from the chest towards the head; head: the joint named head on
//     that chain, else where the head's end joints branch, else its last joint. Wrist / ankle: where the
//     fingers / toes branch, else by name (hand, wrist / foot, ankle), else by geometry (ankle: where the
//     leg turns from going down to going forward). Shoulder, elbow, hip, knee: by name fragments in every
//     common family (upperarm, uparm, humerus, Arm / forearm, lowarm, radius, elbow / upleg, thigh, femur,
//     hip / leg, lowleg, shin, tibia, knee), skipping roll / twist helpers; without a name, the elbow and
//     the knee are the joints nearest the middle of their limb and the shoulder is the joint after the
//     clavicle. Hand / toe: the first joint past the wrist / ankle on the longest finger / toe, the middle
//     one of a fan of three or more (named middle, else the median across the fan), past metacarpals.
#pragma once

#include <string>

#include "mimic/mocap/clip.hpp"
#include "mimic/retarget/landmark_preset.hpp"

namespace mimic::retarget {

struct AutomaticMapping {
  bool found = false;
  SelectedPreset selected;  // preset named "automatic", with SelectedPreset::evidence filled
  // When !found: one sentence saying what was found and what is missing or ambiguous.
  std::string failure;
};

AutomaticMapping map_skeleton(const mocap::Clip& clip);

}  // namespace mimic::retarget
