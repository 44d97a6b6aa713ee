// BVH test clips written from a real one: joints renamed into another naming family, End Sites made
// zero-length, a roll / twist joint inserted in a bone (with zero channels, so the motion is unchanged),
// CRLF line ends. Used to check that the automatic landmark mapping finds, without a preset, the same
// joints the preset finds on the original.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace mimic::test {

struct BvhEdit {
  std::map<std::string, std::string> rename;  // old joint name -> new; absent names are kept
  bool zero_end_sites = false;
  // Insert a joint named `twist_name` between `twist_parent` and its only child, at half the child's
  // offset (the child keeps the other half), with three rotation channels that are zero in every frame.
  std::string twist_parent, twist_name;
  bool crlf = false;
};

namespace detail {

struct BvhNode {
  std::string keyword;  // ROOT, JOINT or End
  std::string name;
  double offset[3] = {0, 0, 0};
  std::vector<std::string> channels;
  std::vector<BvhNode> children;
};

inline BvhNode read_node(std::istringstream& in, const std::string& keyword) {
  BvhNode node;
  node.keyword = keyword;
  std::string token;
  in >> node.name;  // "Site" for an End Site
  in >> token;      // {
  while (in >> token && token != "}") {
    if (token == "OFFSET") {
      in >> node.offset[0] >> node.offset[1] >> node.offset[2];
    } else if (token == "CHANNELS") {
      int n = 0;
      in >> n;
      node.channels.resize(static_cast<std::size_t>(n));
      for (auto& c : node.channels) in >> c;
    } else {
      node.children.push_back(read_node(in, token));
    }
  }
  return node;
}

// Writes the node and returns, through `columns`, the channel count written before the twist's place.
inline void write_node(std::ostringstream& out, const BvhNode& node, int depth, const BvhEdit& edit,
                       int& channel, int& twist_column) {
  const std::string tab(static_cast<std::size_t>(depth), '\t');
  if (node.keyword == "End") {
    out << tab << "End Site\n" << tab << "{\n" << tab << "\tOFFSET";
    for (double v : node.offset) out << ' ' << (edit.zero_end_sites ? 0.0 : v);
    out << "\n" << tab << "}\n";
    return;
  }
  const auto it = edit.rename.find(node.name);
  out << tab << node.keyword << ' ' << (it == edit.rename.end() ? node.name : it->second) << "\n"
      << tab << "{\n"
      << tab << "\tOFFSET " << node.offset[0] << ' ' << node.offset[1] << ' ' << node.offset[2] << "\n"
      << tab << "\tCHANNELS " << node.channels.size();
  for (const auto& c : node.channels) out << ' ' << c;
  out << "\n";
  channel += static_cast<int>(node.channels.size());
  if (node.name == edit.twist_parent && node.children.size() == 1) {
    BvhNode child = node.children.front();
    BvhNode twist;
    twist.keyword = "JOINT";
    twist.name = edit.twist_name;
    for (int k = 0; k < 3; ++k) twist.offset[k] = child.offset[k] / 2, child.offset[k] /= 2;
    twist.channels = {"Zrotation", "Xrotation", "Yrotation"};
    twist_column = channel;
    const std::string inner(static_cast<std::size_t>(depth + 1), '\t');
    out << inner << "JOINT " << twist.name << "\n"
        << inner << "{\n"
        << inner << "\tOFFSET " << twist.offset[0] << ' ' << twist.offset[1] << ' ' << twist.offset[2] << "\n"
        << inner << "\tCHANNELS 3 Zrotation "
        << "Xrotation Yrotation\n";
    channel += 3;
    write_node(out, child, depth + 2, edit, channel, twist_column);
    out << inner << "}\n";
  } else {
    for (const auto& c : node.children) write_node(out, c, depth + 1, edit, channel, twist_column);
  }
  out << tab << "}\n";
}

}  // namespace detail

// The text of `path` (a BVH file) edited as `edit` says.
inline std::string edited_bvh(const std::string& path, const BvhEdit& edit) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream whole;
  whole << file.rdbuf();
  std::string text = whole.str();
  std::string clean;
  for (char c : text)
    if (c != '\r') clean += c;
  const auto motion = clean.find("MOTION");
  std::istringstream hierarchy(clean.substr(0, motion));
  std::string token;
  hierarchy >> token;  // HIERARCHY
  hierarchy >> token;  // ROOT
  const detail::BvhNode root = detail::read_node(hierarchy, token);

  std::ostringstream out;
  out.precision(17);
  out << "HIERARCHY\n";
  int channel = 0, twist_column = -1;
  detail::write_node(out, root, 0, edit, channel, twist_column);

  // MOTION, Frames, Frame Time kept; each frame gets the twist's three zeros at its column.
  std::istringstream motion_text(clean.substr(motion));
  std::string line;
  int line_number = 0;
  while (std::getline(motion_text, line)) {
    if (line_number++ < 3 || twist_column < 0) {
      out << line << "\n";
      continue;
    }
    std::istringstream values(line);
    std::string v;
    int column = 0;
    std::string row;
    while (values >> v) {
      if (column++ == twist_column) row += "0 0 0 ";
      row += v + " ";
    }
    if (column == twist_column) row += "0 0 0 ";
    if (!row.empty()) row.pop_back();
    out << row << "\n";
  }
  std::string result = out.str();
  if (!edit.crlf) return result;
  std::string crlf;
  for (char c : result) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  return crlf;
}

}  // namespace mimic::test
