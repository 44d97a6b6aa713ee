#include "mimic/retarget/skeleton_mapping.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <unordered_set>

#include "mimic/retarget/joint_names.hpp"

namespace mimic::retarget {

namespace {

using Eigen::Vector3d;

// Leaves closer than this fraction of the body height to their common ancestor are one limb end.
constexpr double kLimbEndSpread = 0.25;
// A sixth limb end longer than this fraction of the fifth makes the choice of five ambiguous.
constexpr double kSixthLimbRatio = 0.85;
// The head's chain from the chest must be shorter than this fraction of each arm's to be told by length.
constexpr double kHeadRatio = 0.8;

constexpr std::array<std::string_view, 2> kHeadNames = {"head", "skull"};
constexpr std::array<std::string_view, 1> kNeckNames = {"neck"};
constexpr std::array<std::string_view, 3> kUpperArmNames = {"upperarm", "uparm", "humerus"};
constexpr std::array<std::string_view, 7> kForearmNames = {"forearm", "lowarm", "loarm", "lowerarm",
                                                           "radius",  "ulna",   "elbow"};
constexpr std::array<std::string_view, 3> kWristNames = {"hand", "wrist", "carpus"};
constexpr std::array<std::string_view, 4> kThighNames = {"upleg", "upperleg", "thigh", "femur"};
constexpr std::array<std::string_view, 8> kShinNames = {"lowleg", "loleg", "lowerleg", "shin",
                                                        "tibia",  "knee",  "calf",     "crus"};
constexpr std::array<std::string_view, 2> kAnkleNames = {"foot", "ankle"};
constexpr std::array<std::string_view, 3> kToeNames = {"toe", "ball", "phalan"};
constexpr std::array<std::string_view, 3> kClavicleNames = {"clavicle", "collar", "clav"};
constexpr std::array<std::string_view, 3> kMetacarpalNames = {"metacarpal", "metatars", "palm"};
constexpr std::array<std::string_view, 4> kMiddleNames = {"middle", "finger3", "toe3", "mid"};

struct Tree {
  const mocap::SkeletonClip* s = nullptr;
  std::vector<std::vector<int>> children;  // zero-length End Sites left out
  std::vector<bool> kept;
  std::vector<Vector3d> rest, first;  // rest pose and frame 0
  std::vector<double> reach;          // distance from the root along the bones (rest)
  std::vector<int> depth;             // number of ancestors
  std::vector<int> farthest;          // per joint, the leaf of its subtree with the largest reach
  std::vector<JointName> names;
  double height = 0.0;

  int size() const { return static_cast<int>(rest.size()); }
  int parent(int j) const { return s->joints[static_cast<std::size_t>(j)].parent; }
  const std::string& name(int j) const { return s->joints[static_cast<std::size_t>(j)].name; }
  const JointName& parsed(int j) const { return names[static_cast<std::size_t>(j)]; }
  bool end_site(int j) const { return s->joints[static_cast<std::size_t>(j)].end_site; }
  double along(int ancestor, int j) const {
    return reach[static_cast<std::size_t>(j)] - reach[static_cast<std::size_t>(ancestor)];
  }
  const Vector3d& at(int j) const { return rest[static_cast<std::size_t>(j)]; }

  bool ancestor_or_self(int a, int j) const {
    while (j >= 0 && depth[static_cast<std::size_t>(j)] > depth[static_cast<std::size_t>(a)]) j = parent(j);
    return j == a;
  }
  // Linear in the depth: a corrupt file may hold a chain of 100,000 joints.
  int lca(int a, int b) const {
    while (a >= 0 && b >= 0 && a != b) {
      if (depth[static_cast<std::size_t>(a)] >= depth[static_cast<std::size_t>(b)]) {
        a = parent(a);
      } else {
        b = parent(b);
      }
    }
    return a == b ? a : -1;
  }
  // Joints from `from` (excluded) down to `to` (included), root side first.
  std::vector<int> path(int from, int to) const {
    std::vector<int> p;
    for (int j = to; j >= 0 && j != from; j = parent(j)) p.push_back(j);
    std::reverse(p.begin(), p.end());
    return p;
  }
  // The leaf of j's subtree farthest from j along the bones.
  int farthest_leaf(int j) const { return farthest[static_cast<std::size_t>(j)]; }
};

Tree build_tree(const mocap::SkeletonClip& s) {
  Tree t;
  t.s = &s;
  const auto n = s.joints.size();
  for (const auto& x : s.rest_global_transforms()) t.rest.push_back(x.translation());
  if (s.frame_count() > 0) {
    for (const auto& x : s.global_transforms(0)) t.first.push_back(x.translation());
  } else {
    t.first = t.rest;
  }
  double lo = 1e300, hi = -1e300;
  for (const auto& p : t.rest) lo = std::min(lo, p.z()), hi = std::max(hi, p.z());
  t.height = n > 0 ? hi - lo : 0.0;
  t.reach.assign(n, 0.0);
  t.children.assign(n, {});
  t.kept.assign(n, true);
  std::unordered_set<std::string> all;
  for (const auto& j : s.joints) all.insert(j.name);
  for (std::size_t j = 0; j < n; ++j) {
    const auto& joint = s.joints[j];
    t.names.push_back(parse_joint_name(joint.name, all));
    if (joint.parent < 0) continue;
    t.reach[j] = t.reach[static_cast<std::size_t>(joint.parent)] + joint.offset.norm();
    // An End Site at its parent's origin adds no point: the parent is the tip of the chain.
    if (joint.end_site && joint.offset.norm() <= 1e-9 * std::max(1.0, t.height)) {
      t.kept[j] = false;
      continue;
    }
    if (!t.kept[static_cast<std::size_t>(joint.parent)]) {
      t.kept[j] = false;
      continue;
    }
    t.children[static_cast<std::size_t>(joint.parent)].push_back(static_cast<int>(j));
  }
  // Parents come before their children (clip.hpp): depths forwards, farthest leaves backwards, no recursion.
  t.depth.assign(n, 0);
  for (std::size_t j = 0; j < n; ++j)
    if (s.joints[j].parent >= 0) t.depth[j] = t.depth[static_cast<std::size_t>(s.joints[j].parent)] + 1;
  t.farthest.resize(n);
  for (std::size_t j = n; j-- > 0;) {
    int best = static_cast<int>(j);
    for (int c : t.children[j]) {
      const int leaf = t.farthest[static_cast<std::size_t>(c)];
      if (t.reach[static_cast<std::size_t>(leaf)] > t.reach[static_cast<std::size_t>(best)]) best = leaf;
    }
    t.farthest[j] = best;
  }
  return t;
}

struct LimbEnd {
  std::vector<int> leaves;
  int base = -1;        // common ancestor of the leaves (the leaf itself for one)
  double length = 0.0;  // farthest leaf's distance from the root along the bones
  int tip = -1;         // that leaf
};

std::vector<LimbEnd> limb_ends(const Tree& t) {
  std::vector<LimbEnd> ends;
  const double spread = kLimbEndSpread * t.height;
  for (int j = 0; j < t.size(); ++j) {
    if (!t.kept[static_cast<std::size_t>(j)] || !t.children[static_cast<std::size_t>(j)].empty() ||
        t.parent(j) < 0)
      continue;
    bool merged = false;
    for (LimbEnd& e : ends) {
      const int base = t.lca(e.base, j);
      // Straight-line distances (helper joints, MakeHuman's "__" parents, make detours along the bones),
      // and along the bones within twice as much (hands hanging by the hips are near in a straight line).
      const auto near = [&](int leaf) {
        return (t.at(leaf) - t.at(base)).norm() <= spread && t.along(base, leaf) <= 2.0 * spread;
      };
      bool close = near(j);
      for (int leaf : e.leaves) close = close && near(leaf);
      if (close) {
        e.leaves.push_back(j);
        e.base = base;
        merged = true;
        break;
      }
    }
    if (!merged) ends.push_back(LimbEnd{{j}, j, 0.0, j});
  }
  for (LimbEnd& e : ends) {
    for (int leaf : e.leaves) {
      if (t.reach[static_cast<std::size_t>(leaf)] > e.length) {
        e.length = t.reach[static_cast<std::size_t>(leaf)];
        e.tip = leaf;
      }
    }
  }
  std::stable_sort(ends.begin(), ends.end(),
                   [](const LimbEnd& a, const LimbEnd& b) { return a.length > b.length; });
  return ends;
}

std::string tip_names(const Tree& t, const std::vector<LimbEnd>& ends) {
  std::string out;
  for (const LimbEnd& e : ends) out += (out.empty() ? "" : ", ") + t.name(e.tip);
  return out;
}

// Builds the result as the lines are decided.
struct Builder {
  const Tree& t;
  SelectedPreset& out;
  void set(Landmark l, int joint, std::string how) {
    const auto i = static_cast<std::size_t>(index(l));
    out.match.indices[i] = {joint};
    out.preset.sources[i] = {t.name(joint)};
    out.evidence[i] = std::move(how);
  }
};

// First joint of `chain` (helpers skipped) whose base name has one of `fragments`, or -1.
int first_named(const Tree& t, const std::vector<int>& chain, std::span<const std::string_view> fragments) {
  for (int j : chain)
    if (!t.parsed(j).helper && has_fragment(t.parsed(j).base, fragments)) return j;
  return -1;
}
int first_with_base(const Tree& t, const std::vector<int>& chain, std::string_view base) {
  for (int j : chain)
    if (!t.parsed(j).helper && t.parsed(j).base == base) return j;
  return -1;
}

std::string quoted(const Tree& t, int j) { return "'" + t.name(j) + "'"; }

// The joint of `chain` strictly between positions `a` and `b` of it nearest to the middle of a and b.
int nearest_middle(const Tree& t, const std::vector<int>& chain, std::size_t a, std::size_t b) {
  const Vector3d mid = 0.5 * (t.at(chain[a]) + t.at(chain[b]));
  int best = -1;
  double best_d = 1e300;
  for (std::size_t k = a + 1; k < b; ++k) {
    const double d = (t.at(chain[k]) - mid).norm();
    if (d < best_d - 1e-12 * t.height) best_d = d, best = chain[k];
  }
  return best;
}

std::size_t position_in(const std::vector<int>& chain, int j) {
  return static_cast<std::size_t>(std::find(chain.begin(), chain.end(), j) - chain.begin());
}

// The hand (or toe) point past the wrist (ankle) `w` of a limb end with several leaves: the first joint on
// the longest finger when there are one or two branches (fingers and thumb), the middle one of a fan of
// three or more; metacarpals are passed to the knuckle.
int fan_point(const Tree& t, int w, std::string& how) {
  const auto& kids = t.children[static_cast<std::size_t>(w)];
  if (kids.empty()) return -1;
  int chosen = -1;
  if (kids.size() <= 2) {
    for (int c : kids) {
      if (chosen < 0 || t.reach[static_cast<std::size_t>(t.farthest_leaf(c))] >
                            t.reach[static_cast<std::size_t>(t.farthest_leaf(chosen))])
        chosen = c;
    }
    how = "structure: first joint of the longest branch past the " + std::string(how);
  } else {
    // Names: a branch with "middle" (or MakeHuman's finger3 / toe3) in its first two joints.
    int named = -1, count = 0;
    for (int c : kids) {
      bool hit = has_fragment(t.parsed(c).base, kMiddleNames);
      for (int g : t.children[static_cast<std::size_t>(c)])
        hit = hit || has_fragment(t.parsed(g).base, kMiddleNames);
      if (hit) named = c, ++count;
    }
    // Geometry: the median of the branch tips along the fan's widest direction.
    Vector3d mean = Vector3d::Zero();
    std::vector<Vector3d> tips;
    for (int c : kids) tips.push_back(t.at(t.farthest_leaf(c))), mean += tips.back();
    mean /= static_cast<double>(tips.size());
    Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
    for (const auto& p : tips) cov += (p - mean) * (p - mean).transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(cov);
    const Vector3d axis = eig.eigenvectors().col(2);
    std::vector<std::size_t> order(kids.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return tips[a].dot(axis) < tips[b].dot(axis); });
    const int median = kids[order[order.size() / 2]];
    if (count == 1) {
      chosen = named;
      how = "name: the middle branch of the " + std::to_string(kids.size()) + " past the " + how +
            (named == median ? ", geometry agrees (median across the fan)" : ", geometry differs");
    } else {
      chosen = median;
      how =
          "geometry: median of the " + std::to_string(kids.size()) + " branches fanning out past the " + how;
    }
  }
  while (has_fragment(t.parsed(chosen).base, kMetacarpalNames) &&
         !t.children[static_cast<std::size_t>(chosen)].empty()) {
    chosen = t.children[static_cast<std::size_t>(chosen)].front();
    how += " (metacarpal passed)";
  }
  return chosen;
}

struct Limb {
  LimbEnd end;
  Side side = Side::kNone;
  std::vector<int> chain;  // from the branch point (excluded) to the limb end's tip
};

// Side vote of the chain's names: +1 left, -1 right, 0 no or mixed affixes.
int name_side(const Tree& t, const std::vector<int>& chain) {
  int left = 0, right = 0;
  for (int j : chain) {
    left += t.parsed(j).side == Side::kLeft;
    right += t.parsed(j).side == Side::kRight;
  }
  return left > right ? 1 : right > left ? -1 : 0;
}

Vector3d mean_first(const Tree& t, const std::vector<int>& chain) {
  Vector3d m = Vector3d::Zero();
  for (int j : chain) m += t.first[static_cast<std::size_t>(j)];
  return chain.empty() ? m : Vector3d(m / static_cast<double>(chain.size()));
}

// Decides which of `a`, `b` is the left limb; false when neither names nor geometry tell.
bool assign_sides(const Tree& t, Limb& a, Limb& b, const std::optional<Vector3d>& left, const char* what,
                  std::vector<std::string>& notes) {
  const int na = name_side(t, a.chain), nb = name_side(t, b.chain);
  const int by_names = na == -nb ? na : 0;  // +1: a is left
  int by_geometry = 0;
  if (left) {
    const double d = (mean_first(t, a.chain) - mean_first(t, b.chain)).dot(*left);
    if (std::abs(d) > 0.02 * t.height) by_geometry = d > 0 ? 1 : -1;
  }
  const int decided = by_names != 0 ? by_names : by_geometry;
  if (decided == 0) return false;
  a.side = decided > 0 ? Side::kLeft : Side::kRight;
  b.side = decided > 0 ? Side::kRight : Side::kLeft;
  std::string note = std::string(what) + ": left and right from ";
  if (by_names != 0 && by_geometry == by_names) {
    note += "the names and the pose (sides of the sagittal plane agree)";
  } else if (by_names != 0 && by_geometry != 0) {
    note += "the names; the pose at frame 0 puts them the other way round";
  } else if (by_names != 0) {
    note += "the names (the pose cannot tell)";
  } else {
    note += "the pose at frame 0 (side of the sagittal plane; the names carry no side)";
  }
  notes.push_back(note);
  return true;
}

// Forward at frame 0: from the ankles towards the toes when the feet have toes, else the reader's.
std::optional<Vector3d> left_direction(const Tree& t, const mocap::Clip& clip,
                                       const std::vector<Limb>& feet) {
  Vector3d forward = Vector3d::Zero();
  for (const Limb& f : feet) {
    const int tip = f.end.tip, parent = t.parent(tip);
    if (parent >= 0)
      forward += t.first[static_cast<std::size_t>(tip)] - t.first[static_cast<std::size_t>(parent)];
  }
  forward.z() = 0.0;
  if (forward.norm() < 0.02 * t.height) {
    if (!clip.forward_known) return std::nullopt;
    forward = Vector3d(std::cos(clip.initial_heading), std::sin(clip.initial_heading), 0.0);
  }
  return Vector3d(Vector3d::UnitZ().cross(forward.normalized()));
}

bool downward(const Vector3d& v) { return -v.z() > std::hypot(v.x(), v.y()); }

struct ArmOrLeg {
  Landmark root, middle, end, point;  // shoulder elbow wrist hand / hip knee ankle toe
};

void map_arm(const Tree& t, const Limb& limb, int chest, Builder& b) {
  const bool left = limb.side == Side::kLeft;
  const ArmOrLeg l = left ? ArmOrLeg{Landmark::kLeftShoulder, Landmark::kLeftElbow, Landmark::kLeftWrist,
                                     Landmark::kLeftHand}
                          : ArmOrLeg{Landmark::kRightShoulder, Landmark::kRightElbow, Landmark::kRightWrist,
                                     Landmark::kRightHand};
  // Wrist: where the fingers branch; a single End Site past it is the hand point.
  int wrist = limb.end.base, hand = -1;
  std::string hand_how = "wrist";
  if (limb.end.leaves.size() > 1) {
    b.set(l.end, wrist, "structure: where the fingers branch");
    hand = fan_point(t, wrist, hand_how);
  } else if (t.end_site(limb.end.tip)) {
    wrist = t.parent(limb.end.tip);
    hand = limb.end.tip;
    hand_how = "structure: the End Site past the wrist";
    b.set(l.end, wrist, "structure: last joint of the arm");
  } else {
    const int named = first_named(t, limb.chain, kWristNames);
    wrist = named >= 0 ? named : limb.end.tip;
    b.set(l.end, wrist, named >= 0 ? "name: " + quoted(t, named) : "structure: last joint of the arm");
    if (named >= 0 && named != limb.end.tip) hand = t.children[static_cast<std::size_t>(named)].front();
    hand_how = "structure: the joint past the wrist";
  }
  if (hand >= 0) b.set(l.point, hand, hand_how);

  const std::vector<int> chain = t.path(chest, wrist);  // ends with the wrist
  std::vector<int> before(chain.begin(), chain.end() - 1);
  int elbow = first_named(t, before, kForearmNames);
  int shoulder = first_named(t, before, kUpperArmNames);
  if (shoulder < 0) shoulder = first_with_base(t, before, "arm");
  std::string shoulder_how = shoulder >= 0 ? "name: " + quoted(t, shoulder) : "";
  if (shoulder < 0) {
    // "Shoulder" names the clavicle in Mixamo / Xsens / Blender and the upper arm in others: the last one
    // before the elbow, unless nothing follows the clavicle but the elbow.
    for (int j : before)
      if (!t.parsed(j).helper && t.parsed(j).base.find("shoulder") != std::string::npos &&
          (elbow < 0 || position_in(chain, j) < position_in(chain, elbow)))
        shoulder = j;
    if (shoulder >= 0) shoulder_how = "name: " + quoted(t, shoulder);
  }
  if (shoulder < 0 && !before.empty()) {
    // No name: the joint after the clavicle (named, or the first bone from the chest when the arm has
    // clavicle, upper arm and forearm).
    const int clavicle = first_named(t, before, kClavicleNames);
    std::size_t k = clavicle >= 0 ? position_in(chain, clavicle) + 1 : (before.size() >= 3 ? 1 : 0);
    while (k < before.size() && t.parsed(before[k]).helper) ++k;
    if (k < before.size()) {
      shoulder = before[k];
      shoulder_how = clavicle >= 0 ? "structure: the joint after the clavicle " + quoted(t, clavicle)
                                   : "structure: the second joint from the chest (the first is the clavicle)";
    }
  }
  if (shoulder < 0) return;
  b.set(l.root, shoulder, shoulder_how);
  const std::size_t s = position_in(chain, shoulder), w = chain.size() - 1;
  const int middle = s + 1 < w ? nearest_middle(t, chain, s, w) : -1;
  if (elbow >= 0 && position_in(chain, elbow) > s) {
    b.set(l.middle, elbow,
          "name: " + quoted(t, elbow) + (elbow == middle ? ", geometry agrees (midway shoulder-wrist)" : ""));
  } else if (middle >= 0) {
    b.set(l.middle, middle, "geometry: the joint nearest midway between shoulder and wrist");
  }
}

void map_leg(const Tree& t, const Limb& limb, int pelvis, Builder& b) {
  const bool left = limb.side == Side::kLeft;
  const ArmOrLeg l =
      left ? ArmOrLeg{Landmark::kLeftHip, Landmark::kLeftKnee, Landmark::kLeftAnkle, Landmark::kLeftToe}
           : ArmOrLeg{Landmark::kRightHip, Landmark::kRightKnee, Landmark::kRightAnkle, Landmark::kRightToe};
  const std::vector<int> chain = t.path(pelvis, limb.end.tip);
  int ankle = -1, toe = -1;
  std::string toe_how = "ankle";
  if (limb.end.leaves.size() > 1) {
    ankle = limb.end.base;
    b.set(l.end, ankle, "structure: where the toes branch");
    toe = fan_point(t, ankle, toe_how);
  } else {
    // Geometry: the first joint after a downward bone whose next bone is more forward than down.
    int by_geometry = -1;
    bool went_down = false;
    for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
      const Vector3d bone = t.at(chain[k + 1]) - t.at(chain[k]);
      if (bone.norm() < 1e-3 * t.height) continue;
      if (downward(bone)) {
        went_down = true;
      } else if (went_down) {
        by_geometry = chain[k];
        break;
      }
    }
    if (by_geometry < 0)
      by_geometry = t.end_site(chain.back()) && chain.size() > 1 ? chain[chain.size() - 2] : chain.back();
    const int named = first_named(t, chain, kAnkleNames);
    ankle = named >= 0 ? named : by_geometry;
    b.set(l.end, ankle,
          named >= 0 ? "name: " + quoted(t, named) +
                           (named == by_geometry ? ", geometry agrees (the leg turns forward)" : "")
                     : "geometry: where the leg turns from down to forward");
    const std::size_t a = position_in(chain, ankle);
    for (std::size_t k = a + 1; k < chain.size(); ++k) {
      if ((t.at(chain[k]) - t.at(ankle)).norm() > 1e-3 * t.height && !t.parsed(chain[k]).helper) {
        toe = chain[k];
        break;
      }
    }
    toe_how = "structure: the first joint past the ankle";
    if (toe >= 0 && has_fragment(t.parsed(toe).base, kToeNames)) toe_how += ", name agrees";
  }
  if (toe >= 0) b.set(l.point, toe, toe_how);

  const std::size_t a = position_in(chain, ankle);
  std::vector<int> before(chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(a));
  int hip = first_named(t, before, kThighNames);
  if (hip < 0) {
    // "Hip" names the thigh's first joint (LeftHip) or a pelvis helper before it (LHipJoint): the last one.
    for (int j : before)
      if (!t.parsed(j).helper && t.parsed(j).base.find("hip") != std::string::npos) hip = j;
  }
  std::string hip_how = hip >= 0 ? "name: " + quoted(t, hip) : "";
  if (hip < 0) {
    // No name: the start of the first long downward bone.
    for (std::size_t k = 0; k + 1 < chain.size() && k < a; ++k) {
      const Vector3d bone = t.at(chain[k + 1]) - t.at(chain[k]);
      if (!t.parsed(chain[k]).helper && downward(bone) && bone.norm() > 0.1 * t.height) {
        hip = chain[k];
        hip_how = "geometry: start of the thigh (first long downward bone)";
        break;
      }
    }
  }
  if (hip < 0) return;
  b.set(l.root, hip, hip_how);
  const std::size_t h = position_in(chain, hip);
  int knee = -1;
  for (std::size_t k = h + 1; k < a && knee < 0; ++k) {
    const JointName& n = t.parsed(chain[k]);
    if (!n.helper && (has_fragment(n.base, kShinNames) || n.base == "leg")) knee = chain[k];
  }
  const int middle = h + 1 < a ? nearest_middle(t, chain, h, a) : -1;
  if (knee >= 0) {
    b.set(l.middle, knee,
          "name: " + quoted(t, knee) + (knee == middle ? ", geometry agrees (midway hip-ankle)" : ""));
  } else if (middle >= 0) {
    b.set(l.middle, middle, "geometry: the joint nearest midway between hip and ankle");
  }
}

std::string fail_with(const std::string& found, const std::string& missing) {
  return "automatic mapping: " + found + "; " + missing;
}

}  // namespace

AutomaticMapping map_skeleton(const mocap::Clip& clip) {
  AutomaticMapping result;
  if (!clip.is_skeleton()) {
    result.failure = "automatic mapping: not a skeleton clip";
    return result;
  }
  const Tree t = build_tree(clip.skeleton());
  bool finite = std::isfinite(t.height);
  for (int j = 0; j < t.size() && finite; ++j)
    finite = t.at(j).allFinite() && std::isfinite(t.reach[static_cast<std::size_t>(j)]);
  if (!finite || !(t.height > 0.0)) {
    result.failure = "automatic mapping: the rest pose has no height or non-finite offsets";
    return result;
  }

  // 1. Limb ends.
  std::vector<LimbEnd> ends = limb_ends(t);
  if (ends.size() < 5) {
    // Name what is missing: by height in the rest pose, the two lowest ends are feet, the highest the head.
    std::vector<LimbEnd> by_height = ends;
    std::sort(by_height.begin(), by_height.end(),
              [&](const LimbEnd& a, const LimbEnd& b) { return t.at(a.tip).z() < t.at(b.tip).z(); });
    std::string missing;
    if (by_height.size() <= 1) {
      missing = "missing: the branches of a humanoid (one chain, no limbs)";
    } else if (by_height.size() == 2) {
      missing = "missing: the head and both arms (two limbs only)";
    } else if (by_height.size() == 3) {
      missing = "missing: both arms (found feet " + t.name(by_height[0].tip) + ", " +
                t.name(by_height[1].tip) + " and head " + t.name(by_height[2].tip) + ")";
    } else {
      missing = "missing: one arm (found feet " + t.name(by_height[0].tip) + ", " + t.name(by_height[1].tip) +
                ", one hand " + t.name(by_height[2].tip) + ", head " + t.name(by_height[3].tip) + ")";
    }
    result.failure = fail_with("found " + std::to_string(ends.size()) + " limb ends (" + tip_names(t, ends) +
                                   ") where a humanoid has 5 (head, two hands, two feet)",
                               missing);
    return result;
  }
  if (ends.size() > 5 && ends[5].length > kSixthLimbRatio * ends[4].length) {
    result.failure = fail_with(
        "found " + std::to_string(ends.size()) + " limb ends of similar length (" + tip_names(t, ends) + ")",
        "ambiguous: cannot tell which five are the head, hands and feet (a humanoid has 5)");
    return result;
  }
  ends.resize(5);

  // 2. Feet, pelvis, chest.
  int feet_a = -1, feet_b = -1, pelvis = -1, chest = -1, candidates = 0;
  for (int a = 0; a < 5; ++a) {
    for (int b = a + 1; b < 5; ++b) {
      std::vector<int> upper;
      for (int k = 0; k < 5; ++k)
        if (k != a && k != b) upper.push_back(ends[static_cast<std::size_t>(k)].base);
      const int c = t.lca(upper[0], upper[1]);
      if (t.lca(upper[0], upper[2]) != c || t.lca(upper[1], upper[2]) != c) continue;
      const int p = t.lca(ends[static_cast<std::size_t>(a)].base, ends[static_cast<std::size_t>(b)].base);
      if (p == c || t.lca(p, c) == c) continue;
      feet_a = a, feet_b = b, pelvis = p, chest = c, ++candidates;
    }
  }
  if (candidates != 1) {
    result.failure = fail_with(
        "found 5 limb ends (" + tip_names(t, ends) + ")",
        candidates == 0 ? "missing: a pelvis where two legs branch apart from a chest where two arms and the "
                          "neck branch"
                        : "ambiguous: several ways to pick the legs");
    return result;
  }
  const LimbEnd& foot_a = ends[static_cast<std::size_t>(feet_a)];
  const LimbEnd& foot_b = ends[static_cast<std::size_t>(feet_b)];
  if (t.at(chest).z() - t.at(pelvis).z() < 0.05 * t.height ||
      t.at(pelvis).z() - std::max(t.at(foot_a.tip).z(), t.at(foot_b.tip).z()) < 0.2 * t.height) {
    result.failure = fail_with("legs end at " + t.name(foot_a.tip) + ", " + t.name(foot_b.tip) +
                                   ", arms and neck branch at " + t.name(chest),
                               "not an upright humanoid: in the rest pose the chest is not above the pelvis "
                               "or the feet are not below it");
    return result;
  }

  // Head among the three upper ends: the shortest from the chest; names break a near tie.
  std::vector<LimbEnd> upper;
  for (int k = 0; k < 5; ++k)
    if (k != feet_a && k != feet_b) upper.push_back(ends[static_cast<std::size_t>(k)]);
  std::sort(upper.begin(), upper.end(),
            [](const LimbEnd& a, const LimbEnd& b) { return a.length < b.length; });
  std::string head_end_how = "structure: the shortest of the three chains from the chest";
  const double from_chest = t.reach[static_cast<std::size_t>(chest)];
  if (upper[0].length - from_chest > kHeadRatio * (upper[1].length - from_chest)) {
    int named = -1, count = 0;
    for (int k = 0; k < 3; ++k) {
      if (first_named(t, t.path(chest, upper[static_cast<std::size_t>(k)].tip), kHeadNames) >= 0)
        named = k, ++count;
    }
    if (count != 1) {
      result.failure =
          fail_with("three chains branch at " + t.name(chest) + " (" + tip_names(t, upper) + ")",
                    "ambiguous: cannot tell the head from the arms (similar lengths, no 'head' name)");
      return result;
    }
    std::swap(upper[0], upper[static_cast<std::size_t>(named)]);
    head_end_how = "name: the chain from the chest with a 'head' joint";
  }

  // 3. Sides.
  std::vector<Limb> legs = {Limb{foot_a, Side::kNone, t.path(pelvis, foot_a.tip)},
                            Limb{foot_b, Side::kNone, t.path(pelvis, foot_b.tip)}};
  std::vector<Limb> arms = {Limb{upper[1], Side::kNone, t.path(chest, upper[1].tip)},
                            Limb{upper[2], Side::kNone, t.path(chest, upper[2].tip)}};
  const std::optional<Vector3d> left = left_direction(t, clip, legs);
  SelectedPreset& out = result.selected;
  if (!assign_sides(t, legs[0], legs[1], left, "legs", out.notes) ||
      !assign_sides(t, arms[0], arms[1], left, "arms", out.notes)) {
    result.failure = fail_with("legs end at " + t.name(foot_a.tip) + ", " + t.name(foot_b.tip) +
                                   ", arms at " + t.name(upper[1].tip) + ", " + t.name(upper[2].tip),
                               "ambiguous: cannot tell left from right (no side in the names, no forward "
                               "direction from the toes or the reader)");
    return result;
  }

  // 4. Along the chains.
  out.preset.name = "automatic";
  out.preset.kind = PresetKind::kSkeleton;
  out.preset.description = "found from the skeleton's topology, names and rest pose";
  out.notes.insert(out.notes.begin(), "head chain: " + head_end_how);
  Builder b{t, out};
  b.set(Landmark::kPelvis, pelvis, "structure: where both legs branch");
  b.set(Landmark::kChest, chest, "structure: where both arms and the neck branch");
  const LimbEnd& head_end = upper[0];
  const std::vector<int> neck_chain = t.path(chest, head_end.tip);
  if (!neck_chain.empty()) {
    const int neck = neck_chain.front();
    b.set(Landmark::kNeck, neck,
          std::string("structure: first joint from the chest towards the head") +
              (has_fragment(t.parsed(neck).base, kNeckNames) ? ", name agrees" : ""));
    const std::vector<int> rest_of_chain(neck_chain.begin() + 1, neck_chain.end());
    int head = first_named(t, rest_of_chain, kHeadNames);
    std::string how = head >= 0 ? "name: " + quoted(t, head) + " on the neck chain" : "";
    if (head < 0 && head_end.leaves.size() > 1 && head_end.base != neck) {
      head = head_end.base;
      how = "structure: where the head's end joints branch";
    } else if (head < 0) {
      head =
          t.end_site(head_end.tip) && t.parent(head_end.tip) != neck ? t.parent(head_end.tip) : head_end.tip;
      how = "structure: last joint of the neck chain";
    }
    b.set(Landmark::kHead, head, how);
  }
  for (const Limb& arm : arms) map_arm(t, arm, chest, b);
  for (const Limb& leg : legs) map_leg(t, leg, pelvis, b);

  out.match.count();
  if (!out.match.usable()) {
    std::string found, missing;
    for (int i = 0; i < kLandmarkCount; ++i) {
      const auto l = static_cast<Landmark>(i);
      if (out.match.resolved(l))
        found += (found.empty() ? "" : ", ") + std::string(to_string(l)) + "=" +
                 out.preset.sources[static_cast<std::size_t>(i)].front();
    }
    for (Landmark l : out.match.missing_required)
      missing += (missing.empty() ? "" : ", ") + std::string(to_string(l));
    result.failure = fail_with("found " + found, "missing: " + missing);
    return result;
  }
  result.found = true;
  return result;
}

}  // namespace mimic::retarget
