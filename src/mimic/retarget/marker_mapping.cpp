#include "mimic/retarget/marker_mapping.hpp"

#include <cctype>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "mimic/retarget/joint_names.hpp"

namespace mimic::retarget {

namespace {

// "side:fragment", e.g. "left:asi"; the fragment without Xsens' "p" prefix ("pLeftAcromion").
std::string canonical(const std::string& label, const std::unordered_set<std::string>& all) {
  std::string text = label;
  if (text.size() > 2 && text[0] == 'p' && std::isupper(static_cast<unsigned char>(text[1])))
    text.erase(0, 1);
  const JointName n = parse_joint_name(text, all);
  return std::string(to_string(n.side)) + ":" + n.base;
}

std::unordered_set<std::string> label_set(const std::vector<std::string>& labels) {
  std::unordered_set<std::string> all;
  for (const auto& l : labels) {
    all.insert(l);
    if (l.size() > 2 && l[0] == 'p' && std::isupper(static_cast<unsigned char>(l[1])))
      all.insert(l.substr(1));
  }
  return all;
}

}  // namespace

AutomaticMapping map_markers(const mocap::Clip& clip) {
  AutomaticMapping result;
  if (!clip.is_markers()) {
    result.failure = "automatic mapping: not a marker clip";
    return result;
  }
  const auto& labels = clip.markers().labels;
  const std::unordered_set<std::string> clip_all = label_set(labels);
  std::map<std::string, int> by_key;  // first marker of each canonical key
  for (std::size_t m = 0; m < labels.size(); ++m)
    by_key.emplace(canonical(labels[m], clip_all), static_cast<int>(m));

  int best = -1, meaningful = 0;
  std::string best_missing;
  for (const LandmarkPreset& family : shipped_presets(PresetKind::kMarkers)) {
    std::vector<std::string> names;
    for (const auto& list : family.sources) names.insert(names.end(), list.begin(), list.end());
    const std::unordered_set<std::string> family_all = label_set(names);
    std::unordered_set<std::string> family_keys;
    for (const auto& n : names) family_keys.insert(canonical(n, family_all));
    for (const auto& [key, m] : by_key)
      meaningful = std::max(meaningful, static_cast<int>(family_keys.count(key)));

    SelectedPreset candidate;
    candidate.preset.name = "automatic";
    candidate.preset.kind = PresetKind::kMarkers;
    candidate.preset.description = "labels recognised as the '" + family.name + "' family";
    int matched_labels = 0;
    for (int i = 0; i < kLandmarkCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (family.sources[k].empty()) continue;
      std::vector<int> markers;
      std::string how;
      for (const auto& name : family.sources[k]) {
        const auto it = by_key.find(canonical(name, family_all));
        if (it == by_key.end()) {
          markers.clear();  // a centroid of fewer markers would be a different point
          break;
        }
        markers.push_back(it->second);
        how += (how.empty() ? "" : ", ") + labels[static_cast<std::size_t>(it->second)] +
               (labels[static_cast<std::size_t>(it->second)] == name ? "" : " as " + name);
      }
      if (markers.empty()) continue;
      matched_labels += static_cast<int>(markers.size());
      candidate.match.indices[k] = markers;
      candidate.preset.sources[k] = family.sources[k];
      candidate.evidence[k] = "family '" + family.name + "' by label fragments: " + how;
    }
    candidate.match.count();
    const bool better =
        candidate.match.usable() &&
        (!result.found || candidate.match.resolved_count > result.selected.match.resolved_count);
    if (better) {
      result.found = true;
      result.selected = std::move(candidate);
    } else if (!result.found && matched_labels > best) {
      best = matched_labels;
      std::string missing;
      for (Landmark l : candidate.match.missing_required)
        missing += (missing.empty() ? "" : ", ") + std::string(to_string(l));
      best_missing = "closest family '" + family.name + "' lacks " + missing;
    }
  }
  if (result.found) return result;
  if (meaningful == 0) {
    result.failure =
        "automatic mapping: the marker labels carry no anatomical meaning (no side and body-part fragment "
        "of any known marker family, e.g. LASI, L_IAS, pLeftAcromion)";
  } else {
    result.failure = "automatic mapping: " + best_missing;
  }
  return result;
}

}  // namespace mimic::retarget
