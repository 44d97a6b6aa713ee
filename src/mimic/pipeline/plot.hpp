// `mimic plot X.pos`: figures of a motion drawn by gnuplot (Debian package gnuplot-nox), as PNG or SVG.
//
//  * joints.<fmt>:  one panel per selected joint, the angle over time of X and of every comparison motion
//                   (X.original.pos, X.reference.pos beside X and --compare files), each on its own time
//                   axis, with the model's angle limits (seed 000 Fig. 2: original, re-parameterized and
//                   optimized right elbow);
//  * torques.<fmt>: the joint torques of X (inverse dynamics with the ground reaction of seed 001 III-C,
//                   as `mimic check` computes them) of the most loaded joints, with the +-effort limits;
//  * zmp.<fmt>:     the multibody ZMP of X and the centre of mass's ground projection in the world x-y
//                   plane over the support polygon outlines (at the start and at every support change),
//                   and x(t), y(t) between the polygon's bounds;
//  * geometry.<fmt> (given the robot's collision model): the smallest distance between two collision
//                   shapes over time against the safety distance, and the lowest sole corner's height
//                   against the floor (issue 13; evaluation::check_geometry, the scan of `mimic check`).
//
// The output folder keeps everything needed to redraw the figures: the data (*.dat, whitespace-separated
// columns under a '#' header) and the gnuplot script plot.gp, which names its files relative to the folder
// (`cd X.plots && gnuplot plot.gp` redraws them after an edit). mimic runs gnuplot in that folder, so no
// user path ever appears in the script; the figures are drawn under temporary names and renamed into place
// only when gnuplot succeeds.
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/support_polygon.hpp"

namespace mimic::pipeline {

enum class PlotFormat { kPng, kSvg };
const char* to_string(PlotFormat format);               // "png", "svg" (the file extension)
PlotFormat parse_plot_format(const std::string& text);  // InputError for anything else

// Joint angles of one motion, as read from its .pos.
struct PlotMotion {
  std::string label;           // legend entry: the file stem ("walk", "walk.original")
  std::filesystem::path path;  // the .pos
  std::vector<double> times;   // s
  Eigen::MatrixXd angles;      // nj x N, rad, OpenHRP order (the .pos joint columns)
};

// A support polygon drawn in the x-y plane.
struct SupportOutline {
  double time = 0.0;  // s, the first sample with this support
  model::ContactPhase phase = model::ContactPhase::kDoubleSupport;
  std::vector<stability::Vec2> vertices;  // counter-clockwise, world x-y, m
};

// Everything the figures show, computed from the model and the motions.
struct PlotData {
  std::vector<std::string> joint_names;                    // the model's (nj)
  Eigen::VectorXd lower_limit, upper_limit, effort_limit;  // rad, rad, N m (nj)

  std::vector<int> joints;          // joint indices of the joints figure's panels, OpenHRP order
  std::vector<PlotMotion> motions;  // [0] = the plotted motion, then the comparisons

  // Dynamics of motions[0] (N samples, its own times).
  std::vector<double> times;
  bool base_reconstructed = false;          // no .waist: base rebuilt from the support foot
  Eigen::MatrixXd torques;                  // nj x N, N m
  std::vector<int> torque_joints;           // the torque figure's panels, most loaded first
  Eigen::MatrixXd zmp;                      // 2 x N, world x y, m; NaN where the ground would pull
  Eigen::MatrixXd com;                      // 2 x N, ground projection of the centre of mass, m
  Eigen::MatrixXd support_bounds;           // 4 x N: x min, x max, y min, y max of the polygon, m
  std::vector<double> margin;               // signed ZMP distance to the polygon edge, m (+ inside)
  std::vector<model::ContactPhase> phases;  // N
  std::vector<SupportOutline> outlines;     // at sample 0 and wherever the support phase changes
  // Closest pair and lowest sole corner per sample (sample_min_distance, sample_min_corner_height); empty
  // without a collision model (no geometry figure).
  std::optional<evaluation::GeometryReport> geometry;
};

// The robot's geometry for geometry.<fmt>; no collision model, no figure.
struct PlotGeometry {
  std::shared_ptr<const geometry::CollisionModel> collision;
  evaluation::GeometryCheckOptions check;  // its safety distance is drawn as a line
};

struct PlotSelection {
  std::vector<std::string> joints;  // names; empty: the joints that move the most in motions[0]
  int max_joints = 8;               // panels of the joints figure when chosen automatically
  int max_torque_joints = 6;        // panels of the torques figure (largest peak |tau| / limit first)
};

// A motion read for plotting: its files and its legend label.
struct LabelledMotion {
  std::string label;
  std::filesystem::path path;
  io::MotionFiles files;
};

// The file stem as a legend label: "out/walk.original.pos" -> "walk.original", "out/g1.csv" -> "g1".
std::string motion_label(const std::filesystem::path& pos);

// Computes the figures' data. `robot` is the model (payload included) whose limits and dynamics apply;
// `contacts` are the job's explicit support intervals (empty: detected from the feet). An unknown joint
// name in `selection` is an InputError listing the valid names.
PlotData compute_plot_data(const model::Model& robot, const stability::Feet& feet, const LabelledMotion& main,
                           const std::vector<LabelledMotion>& comparisons,
                           const std::vector<model::ContactInterval>& contacts,
                           const PlotSelection& selection, const PlotGeometry& geometry = {});

// The files of the output folder, relative to it.
struct PlotFileSet {
  std::string name;      // "motion0.dat", "plot.gp"
  std::string contents;  // the whole text
};

// The data files and the gnuplot script (last) for `data`, drawing figures of `format`. The script draws
// to `<prefix>joints.<fmt>` etc., where the gnuplot variable `prefix` defaults to '' (so that running it
// by hand draws the final names).
std::vector<PlotFileSet> plot_files(const PlotData& data, PlotFormat format, const std::string& title);

struct PlotOptions {
  std::filesystem::path output_dir;  // empty: X.plots beside X.pos
  PlotFormat format = PlotFormat::kPng;
  PlotSelection selection;
  PlotGeometry geometry;
  std::vector<std::filesystem::path> compare;  // extra motions (.pos or .csv), labelled by their stems
  std::optional<double> csv_rate;   // Hz of the .csv motions (they carry no time); required for one
  bool auto_compare = true;         // also X.original.pos and X.reference.pos when they exist beside X
  bool render = true;               // false: write the data and the script only
  std::string gnuplot = "gnuplot";  // program (searched in PATH unless it contains a '/')
};

struct PlotResult {
  std::filesystem::path dir;
  std::filesystem::path script;
  std::vector<std::filesystem::path> data_files;
  std::vector<std::filesystem::path> figures;  // empty unless rendered
  std::vector<std::string> labels;             // the motions drawn, plotted motion first
  PlotData data;
};

// "out/walk.pos" -> "out/walk.plots", "out/g1.csv" -> "out/g1.plots".
std::filesystem::path default_plot_dir(const std::filesystem::path& motion);

// Reads X (and the comparisons), computes the data, writes the folder and runs gnuplot in it. Errors: a
// missing or malformed motion or an unknown joint is an InputError; an unwritable folder, a missing
// gnuplot ("gnuplot not found: install the Debian package gnuplot-nox") or a failing one an OutputError.
PlotResult plot_motion(const model::Model& robot, const stability::Feet& feet,
                       const std::filesystem::path& motion,
                       const std::vector<model::ContactInterval>& contacts, const PlotOptions& options);

// The absolute path of `program` (PATH lookup unless it contains a '/'), or empty when it is not an
// executable file.
std::filesystem::path find_program(const std::string& program);

// Runs `program args...` with `dir` as working directory and waits for it. Returns its exit status
// (128 + signal when killed); its standard error is returned in `error_output` (stdout is discarded).
// Throws OutputError when it cannot be started.
int run_program(const std::filesystem::path& program, const std::vector<std::string>& args,
                const std::filesystem::path& dir, std::string* error_output = nullptr);

}  // namespace mimic::pipeline
