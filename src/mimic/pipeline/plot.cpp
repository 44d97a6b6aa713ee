// `mimic plot`: the data files, the gnuplot script, and running gnuplot.
#include "mimic/pipeline/plot.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>

#include "mimic/core/atomic_file.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_conversion.hpp"
#include "mimic/pipeline/csv_motion.hpp"

extern char** environ;

namespace mimic::pipeline {

namespace fs = std::filesystem;

namespace {

constexpr double kDeg = 180.0 / M_PI;

// A gnuplot single-quoted string: no escapes inside except '' for a quote; control characters (a newline
// would end the command) become '?'.
std::string quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'')
      out += "''";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += '?';
    else
      out += c;
  }
  return out + "'";
}

// A comment line's text: control characters replaced.
std::string comment_text(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

void append_value(std::string& out, double value) {
  if (std::isfinite(value))
    core::append_number(out, value);
  else
    out += "NaN";
}

std::string number(double value) {
  std::string out;
  append_value(out, value);
  return out;
}

const char* phase_name(model::ContactPhase phase) {
  switch (phase) {
    case model::ContactPhase::kRightSupport:
      return "right support";
    case model::ContactPhase::kLeftSupport:
      return "left support";
    case model::ContactPhase::kDoubleSupport:
      return "double support";
  }
  return "?";
}

int phase_code(model::ContactPhase phase) {
  switch (phase) {
    case model::ContactPhase::kDoubleSupport:
      return 0;
    case model::ContactPhase::kRightSupport:
      return 1;
    case model::ContactPhase::kLeftSupport:
      return 2;
  }
  return -1;
}

// Header "# t RLEG_JOINT0 ..." and one row per sample: time and every joint's value.
std::string joint_table(const std::vector<double>& times, const Eigen::MatrixXd& values,
                        const std::vector<std::string>& names, const std::string& what) {
  std::string out = "# " + what + "\n# t";
  for (const auto& n : names) out += " " + n;
  out += "\n";
  for (std::size_t k = 0; k < times.size(); ++k) {
    core::append_time(out, times[k]);
    for (Eigen::Index j = 0; j < values.rows(); ++j) {
      out += ' ';
      append_value(out, values(j, static_cast<Eigen::Index>(k)));
    }
    out += '\n';
  }
  return out;
}

// A y range for a panel: the data's, padded, and widened to take in a limit close to the data (within a
// data span) so that the limit lines show whenever they matter without flattening small motions.
std::pair<double, double> view_range(double lo, double hi, double limit_lo, double limit_hi,
                                     double min_span) {
  if (!(lo <= hi)) lo = -1.0, hi = 1.0;
  double span = std::max(hi - lo, min_span);
  const double mid = 0.5 * (lo + hi);
  lo = std::min(lo, mid - 0.5 * span), hi = std::max(hi, mid + 0.5 * span);
  if (std::isfinite(limit_lo) && limit_lo >= lo - span) lo = std::min(lo, limit_lo);
  if (std::isfinite(limit_hi) && limit_hi <= hi + span) hi = std::max(hi, limit_hi);
  span = hi - lo;
  return {lo - 0.08 * span, hi + 0.08 * span};
}

// Dashed horizontal lines at the finite `limits`, with a legend entry only when one is within [y0, y1].
std::string limit_lines(std::initializer_list<double> limits, double y0, double y1,
                        const std::string& title) {
  std::string out;
  bool titled = false;
  for (const double limit : limits) {
    if (!std::isfinite(limit)) continue;
    const bool visible = limit >= y0 && limit <= y1;
    out += (out.empty() ? "" : ", ") + number(limit) + " with lines dt 2 lw 1.5 lc rgb '#cc0000' " +
           (visible && !titled ? "title " + quote(title) : std::string("notitle"));
    titled |= visible;
  }
  return out.empty() ? "NaN notitle" : out;
}

// The grid of a multiplot of `panels` panels.
std::pair<int, int> grid(std::size_t panels) {
  const int columns = panels > 3 ? 2 : 1;
  const int rows = static_cast<int>((panels + static_cast<std::size_t>(columns) - 1) / columns);
  return {std::max(rows, 1), columns};
}

void terminal(std::ostringstream& gp, int width, int height) {
  gp << "set terminal @term size " << width << "," << height << "\nset datafile missing 'NaN'\n";
}

std::string joints_script(const PlotData& data, const std::string& ext) {
  std::ostringstream gp;
  const auto [rows, columns] = grid(data.joints.size());
  terminal(gp, columns == 1 ? 1000 : 1400, 70 + 300 * rows);
  gp << "set output prefix.'joints." << ext << "'\n";
  std::string labels;
  for (const auto& m : data.motions) labels += (labels.empty() ? "" : ", ") + m.label;
  gp << "set multiplot layout " << rows << "," << columns << " rowsfirst title "
     << quote("Joint angles: " + labels + " (dashed: the model's angle limits)") << "\n";
  gp << "set xlabel 'time (s)'\nset ylabel 'angle (deg)'\nset grid\n"
     << "set key top right box opaque font ',9' samplen 2\n";
  for (const int j : data.joints) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& m : data.motions)
      if (m.angles.cols() > 0)
        lo = std::min(lo, m.angles.row(j).minCoeff()), hi = std::max(hi, m.angles.row(j).maxCoeff());
    const double lower = data.lower_limit[j] * kDeg, upper = data.upper_limit[j] * kDeg;
    const auto [y0, y1] = view_range(lo * kDeg, hi * kDeg, lower, upper, 5.0);
    const std::string& name = data.joint_names[static_cast<std::size_t>(j)];
    gp << "\n# " << name << ": column " << j + 2 << " of the motion files (rad)\n";
    gp << "set title " << quote(fmt::format("{}  (limits {:.1f} .. {:.1f} deg)", name, lower, upper)) << "\n";
    gp << "set yrange [" << number(y0) << ":" << number(y1) << "]\n";
    gp << "plot ";
    for (std::size_t m = 0; m < data.motions.size(); ++m)
      gp << "'motion" << m << ".dat' using 1:(column(" << j + 2 << ")*180/pi) with lines lw 2 lc " << m + 1
         << " title " << quote(data.motions[m].label) << ", \\\n     ";
    gp << limit_lines({lower, upper}, y0, y1, "angle limits") << "\n";
  }
  gp << "unset multiplot\nunset output\nreset\n";
  return gp.str();
}

std::string torques_script(const PlotData& data, const std::string& ext, const std::string& title) {
  std::ostringstream gp;
  const auto [rows, columns] = grid(data.torque_joints.size());
  terminal(gp, columns == 1 ? 1000 : 1400, 70 + 300 * rows);
  gp << "set output prefix.'torques." << ext << "'\n";
  gp << "set multiplot layout " << rows << "," << columns << " rowsfirst title "
     << quote("Joint torques of " + title +
              " (inverse dynamics, ground reaction shared by the support feet; dashed: +-effort limit)")
     << "\n";
  gp << "set xlabel 'time (s)'\nset ylabel 'torque (N m)'\nset y2label '% of the limit'\nset grid\n"
     << "set ytics nomirror\nset y2tics\nset key top right box opaque font ',9' samplen 2\n";
  for (const int j : data.torque_joints) {
    const double limit = data.effort_limit[j];
    const auto row = data.torques.row(j);
    const double lo = row.size() > 0 ? row.minCoeff() : 0.0, hi = row.size() > 0 ? row.maxCoeff() : 0.0;
    const double peak = row.size() > 0 ? row.cwiseAbs().maxCoeff() : 0.0;
    const bool finite = std::isfinite(limit) && limit > 0.0;
    // Loaded joints (25 % of the limit and more) show their limits; lighter ones are scaled to the data
    // (the right axis reads in % of the limit).
    const bool loaded = finite && peak >= 0.25 * limit;
    const auto [y0, y1] =
        loaded ? std::pair{-1.1 * limit, 1.1 * limit}
               : view_range(lo, hi, finite ? -limit : NAN, finite ? limit : NAN, finite ? 0.05 * limit : 1.0);
    const std::string& name = data.joint_names[static_cast<std::size_t>(j)];
    gp << "\n# " << name << ": column " << j + 2 << " of torques.dat (N m)\n";
    gp << "set title "
       << quote(finite ? fmt::format("{}  (limit {:.4g} N m, peak |tau| {:.4g} N m = {:.0f}%)", name, limit,
                                     peak, 100.0 * peak / limit)
                       : fmt::format("{}  (no effort limit, peak |tau| {:.4g} N m)", name, peak))
       << "\n";
    gp << "set yrange [" << number(y0) << ":" << number(y1) << "]\n";
    if (finite)
      gp << "set y2range [" << number(100.0 * y0 / limit) << ":" << number(100.0 * y1 / limit) << "]\n";
    else
      gp << "unset y2tics\nunset y2label\n";
    gp << "plot 'torques.dat' using 1:" << j + 2 << " with lines lw 2 lc 1 title 'torque'";
    if (finite) gp << ", \\\n     " << limit_lines({-limit, limit}, y0, y1, "effort limit");
    gp << "\n";
  }
  gp << "unset multiplot\nunset output\nreset\n";
  return gp.str();
}

std::string zmp_script(const PlotData& data, const std::string& ext, const std::string& title) {
  std::ostringstream gp;
  terminal(gp, 1400, 1150);
  gp << "set output prefix.'zmp." << ext << "'\n";
  gp << "set multiplot title "
     << quote("ZMP of " + title + " (multibody dynamics) against the support polygon" +
              (data.base_reconstructed ? "; base reconstructed from the support foot (no .waist)" : ""))
     << "\n";
  gp << "set grid\nset key top right box opaque font ',9' samplen 2\n";
  // The ground plane, at equal scales.
  gp << "\n# World x-y plane: support polygons (support.dat), ZMP and CoM projection (zmp.dat)\n";
  gp << "set origin 0,0.42\nset size 1,0.54\nset size ratio -1\n";
  gp << "set title 'Ground plane (outlines: the support polygon at the start and at every support change)'\n";
  gp << "set xlabel 'x (m)'\nset ylabel 'y (m)'\n";
  gp << "plot 'support.dat' using 1:($3 == 0 ? $2 : NaN) with lines lw 1 dt 3 lc rgb '#4060a0' "
        "title 'support polygon (double support)', \\\n"
     << "     'support.dat' using 1:($3 != 0 ? $2 : NaN) with lines lw 2 lc rgb '#4060a0' "
        "title 'support polygon (single support)', \\\n"
     << "     'zmp.dat' using 2:3 with lines lw 2 lc rgb '#d02020' title 'ZMP', \\\n"
     << "     'zmp.dat' using 4:5 with lines lw 1.5 dt 2 lc rgb '#202020' title 'CoM (ground projection)', "
        "\\\n"
     << "     'zmp.dat' every ::0::0 using 2:3 with points pt 7 ps 1.5 lc rgb '#d02020' title 'start'\n";
  gp << "set size noratio\n";
  // x(t), y(t) between the polygon's bounds, and the margin.
  const char* axes[2] = {"x", "y"};
  for (int a = 0; a < 2; ++a) {
    gp << "\n# " << axes[a] << "(t): ZMP, CoM and the polygon's " << axes[a] << " bounds (zmp.dat)\n";
    gp << "set origin " << (a == 0 ? "0" : "0.3333") << ",0\nset size 0.3333,0.42\n";
    gp << "set title "
       << quote(std::string("ZMP ") + axes[a] + "(t) within the support polygon's " + axes[a] + " extent")
       << "\n";
    gp << "set xlabel 'time (s)'\nset ylabel '" << axes[a] << " (m)'\n";
    const int c = 2 + a;      // ZMP column
    const int b = 6 + 2 * a;  // bounds columns b, b + 1
    gp << "plot 'zmp.dat' using 1:" << b << ":" << b + 1
       << " with filledcurves fs solid 0.25 noborder lc rgb '#4060a0' title 'support polygon', \\\n"
       << "     'zmp.dat' using 1:" << c << " with lines lw 2 lc rgb '#d02020' title 'ZMP', \\\n"
       << "     'zmp.dat' using 1:" << c + 2 << " with lines lw 1.5 dt 2 lc rgb '#202020' title 'CoM'\n";
  }
  gp << "\n# Signed distance of the ZMP to the polygon's edge (zmp.dat column 10)\n";
  gp << "set origin 0.6666,0\nset size 0.3333,0.42\n";
  gp << "set title 'ZMP margin inside the support polygon'\n";
  gp << "set xlabel 'time (s)'\nset ylabel 'margin (mm, < 0: outside)'\nset yrange [*<-5:5<*]\n";
  gp << "plot 'zmp.dat' using 1:($10*1000) with lines lw 2 lc rgb '#d02020' title 'margin', "
     << "0 with lines dt 2 lw 1.5 lc rgb '#cc0000' title 'polygon edge'\n";
  gp << "unset multiplot\nunset output\nreset\n";
  return gp.str();
}

// geometry.<fmt>: the closest pair's distance against the safety distance, the lowest sole corner against
// the floor, in mm.
std::string geometry_script(const evaluation::GeometryReport& g, const std::string& ext,
                            const std::string& title) {
  std::ostringstream gp;
  terminal(gp, 1000, 700);
  gp << "set output prefix.'geometry." << ext << "'\n";
  gp << "set multiplot layout 2,1 title " << quote("Geometry of " + title + " (the robot's collision shapes)")
     << "\n";
  gp << "set grid\nset key top right box opaque font ',9' samplen 2\nset xlabel 'time (s)'\n";
  gp << "\n# Smallest distance between two collision shapes (geometry.dat column 2, m)\n";
  gp << "set title "
     << quote(std::isfinite(g.min_distance)
                  ? fmt::format("Closest pair of shapes (min {:.1f} mm: {} / {} at t = {:.3f} s)",
                                g.min_distance * 1e3, g.closest_first, g.closest_second, g.min_distance_time)
                  : std::string("Closest pair of shapes (no pair is checked)"))
     << "\n";
  gp << "set ylabel 'distance (mm, < 0: overlap)'\nset yrange [*<-5:*]\n";
  gp << "plot 'geometry.dat' using 1:($2*1000) with lines lw 2 lc rgb '#d02020' title 'min pair distance', "
     << number(g.safety_distance * 1e3) << " with lines dt 2 lw 1.5 lc rgb '#cc0000' title "
     << quote(fmt::format("safety distance {:.4g} mm", g.safety_distance * 1e3)) << "\n";
  gp << "\n# Height of the lowest sole corner (geometry.dat column 3, m)\n";
  gp << "set title "
     << quote(std::isfinite(g.min_corner_height)
                  ? fmt::format("Lowest sole corner (min {:.2f} mm: {} foot at t = {:.3f} s)",
                                g.min_corner_height * 1e3, g.lowest_corner_foot, g.min_corner_time)
                  : std::string("Lowest sole corner (no sole corner)"))
     << "\n";
  gp << "set ylabel 'height (mm, < 0: below the floor)'\nset yrange [*<-5:*]\n";
  gp << "plot 'geometry.dat' using 1:($3*1000) with lines lw 2 lc rgb '#4060a0' title 'lowest sole corner', "
     << "0 with lines dt 2 lw 1.5 lc rgb '#cc0000' title 'floor'\n";
  gp << "unset multiplot\nunset output\nreset\n";
  return gp.str();
}

}  // namespace

std::vector<PlotFileSet> plot_files(const PlotData& data, PlotFormat format, const std::string& title) {
  std::vector<PlotFileSet> files;
  for (std::size_t m = 0; m < data.motions.size(); ++m) {
    const auto& motion = data.motions[m];
    files.push_back(
        {"motion" + std::to_string(m) + ".dat",
         joint_table(motion.times, motion.angles, data.joint_names,
                     comment_text(motion.label + ": joint angles (rad) of " + motion.path.string()))});
  }
  files.push_back({"torques.dat", joint_table(data.times, data.torques, data.joint_names,
                                              comment_text(title + ": joint torques (N m)"))});

  std::string zmp = "# " + comment_text(title) +
                    ": multibody ZMP and CoM ground projection (world, m), support polygon bounds (m), "
                    "ZMP margin (m, negative outside), support (0 double, 1 right, 2 left)\n"
                    "# t zmp_x zmp_y com_x com_y support_x_min support_x_max support_y_min support_y_max "
                    "margin support\n";
  for (std::size_t k = 0; k < data.times.size(); ++k) {
    const auto c = static_cast<Eigen::Index>(k);
    core::append_time(zmp, data.times[k]);
    for (const double v :
         {data.zmp(0, c), data.zmp(1, c), data.com(0, c), data.com(1, c), data.support_bounds(0, c),
          data.support_bounds(1, c), data.support_bounds(2, c), data.support_bounds(3, c), data.margin[k]}) {
      zmp += ' ';
      append_value(zmp, v);
    }
    zmp += ' ' + std::to_string(phase_code(data.phases[k])) + '\n';
  }
  files.push_back({"zmp.dat", std::move(zmp)});

  std::string support =
      "# " + comment_text(title) +
      ": support polygon outlines (world x y, m; support 0 double, 1 right, 2 left), closed, one block per "
      "support change\n# x y support\n";
  for (const auto& o : data.outlines) {
    support += "# t = " + number(o.time) + " s: " + phase_name(o.phase) + "\n";
    for (std::size_t i = 0; i <= o.vertices.size() && !o.vertices.empty(); ++i) {
      const auto& p = o.vertices[i % o.vertices.size()];
      support += number(p.x()) + " " + number(p.y()) + " " + std::to_string(phase_code(o.phase)) + "\n";
    }
    support += "\n";
  }
  files.push_back({"support.dat", std::move(support)});

  if (data.geometry) {
    std::string geometry = "# " + comment_text(title) +
                           ": per sample, the smallest distance between two collision shapes (m, negative "
                           "when they overlap) and the height of the lowest sole corner (m)\n"
                           "# t min_pair_distance min_sole_corner_height\n";
    for (std::size_t k = 0; k < data.times.size(); ++k) {
      const auto c = static_cast<Eigen::Index>(k);
      core::append_time(geometry, data.times[k]);
      for (const double v :
           {data.geometry->sample_min_distance[c], data.geometry->sample_min_corner_height[c]}) {
        geometry += ' ';
        append_value(geometry, v);
      }
      geometry += '\n';
    }
    files.push_back({"geometry.dat", std::move(geometry)});
  }

  const std::string ext = to_string(format);
  std::ostringstream gp;
  gp << "# Figures of " << comment_text(title) << ", written by `mimic plot`.\n"
     << "# Edit and redraw in this folder: gnuplot plot.gp   (draws joints." << ext << ", torques." << ext
     << ", zmp." << ext << (data.geometry ? ", geometry." + ext : std::string()) << ")\n"
     << "# Data: motion<i>.dat (t, then the " << data.joint_names.size()
     << " joint angles in rad, OpenHRP order; motion0 is the plotted\n"
     << "# motion), torques.dat (t, " << data.joint_names.size()
     << " joint torques in N m), zmp.dat, support.dat" << (data.geometry ? ", geometry.dat" : "")
     << " (see their headers).\n"
     << "if (!exists('prefix')) prefix = ''\n";
  if (format == PlotFormat::kPng)
    gp << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
       << "  term = \"pngcairo noenhanced font 'Sans,10' linewidth 1\"\n"
       << "} else {\n  term = 'png noenhanced'\n}\n";
  else
    gp << "term = \"svg noenhanced dynamic font 'Sans,10' background rgb 'white'\"\n";
  gp << "\n# ---- joints." << ext << " ----\n" << joints_script(data, ext);
  gp << "\n# ---- torques." << ext << " ----\n" << torques_script(data, ext, title);
  gp << "\n# ---- zmp." << ext << " ----\n" << zmp_script(data, ext, title);
  if (data.geometry)
    gp << "\n# ---- geometry." << ext << " ----\n" << geometry_script(*data.geometry, ext, title);
  files.push_back({"plot.gp", gp.str()});
  return files;
}

fs::path default_plot_dir(const fs::path& motion) {
  fs::path base = motion_base_name(motion);
  base += ".plots";
  return base;
}

fs::path find_program(const std::string& program) {
  const auto executable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.empty()) return {};
  if (program.find('/') != std::string::npos) return executable(program) ? fs::absolute(program) : fs::path();
  const char* env = std::getenv("PATH");
  const std::string path = env && *env ? env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string dir = path.substr(start, end - start);
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (executable(candidate)) return fs::absolute(candidate);
    start = end + 1;
  }
  return {};
}

int run_program(const fs::path& program, const std::vector<std::string>& args, const fs::path& dir,
                std::string* error_output) {
  std::vector<std::string> argv_text = {program.string()};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);

  const fs::path abs_dir = fs::absolute(dir);
  const fs::path err_file = abs_dir / (".stderr-" + std::to_string(::getpid()) + ".tmp");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addchdir_np(&actions, abs_dir.c_str());
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    std::error_code ec;
    fs::remove(err_file, ec);
    throw OutputError(program.string() + ": cannot start: " + std::strerror(rc));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw OutputError(program.string() + ": waitpid failed: " + std::strerror(errno));
  }
  if (error_output) {
    std::ifstream in(err_file);
    std::ostringstream text;
    text << in.rdbuf();
    *error_output = text.str();
  }
  std::error_code ec;
  fs::remove(err_file, ec);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

namespace {

std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r^") != std::string::npos) last = line;
  return last;
}

// The file that names a motion: X.pos for hrpsys files (given as X, X.pos, X.waist ...), else the .csv.
fs::path motion_path(const fs::path& path) {
  return io::is_csv_motion(path) ? path : io::motion_file(io::motion_base(path), ".pos");
}

// A CSV motion is turned into the files of an hrpsys motion (.pos and .waist, io::motion_files), which
// the figures are computed from: its joint columns are the model's joints, in the model's order (the
// description's joint_order).
LabelledMotion read_labelled(const model::Model& robot, const fs::path& path,
                             std::optional<double> csv_rate) {
  LabelledMotion m;
  m.path = motion_path(path);
  m.label = motion_label(path);
  if (!io::is_csv_motion(path)) {
    m.files = io::read_motion(path);
    return m;
  }
  const model::SampledMotion motion = read_csv_configurations(robot, robot.joint_names, path, csv_rate);
  m.files = io::motion_files(robot, motion, Eigen::MatrixXd(0, 3));
  return m;
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

}  // namespace

PlotResult plot_motion(const model::Model& robot, const stability::Feet& feet, const fs::path& motion,
                       const std::vector<model::ContactInterval>& contacts, const PlotOptions& options) {
  const LabelledMotion main = read_labelled(robot, motion, options.csv_rate);
  std::vector<LabelledMotion> comparisons;
  std::vector<fs::path> compare;  // X.original, X.reference (seed 000 Fig. 2 a, b), then the others
  if (options.auto_compare) {
    const fs::path base = motion_base_name(motion);
    for (const char* extension : {".original.pos", ".reference.pos"}) {
      const fs::path candidate = io::motion_file(base, extension);
      std::error_code ec;
      if (!fs::exists(candidate, ec)) continue;
      compare.push_back(candidate);
    }
  }
  for (const auto& path : options.compare) {
    const bool listed = std::any_of(compare.begin(), compare.end(),
                                    [&](const fs::path& p) { return same_file(p, motion_path(path)); });
    if (!listed) compare.push_back(path);
  }
  for (const auto& path : compare) {
    if (same_file(motion_path(path), main.path)) continue;
    comparisons.push_back(read_labelled(robot, path, options.csv_rate));
  }

  // gnuplot before any work, so that a missing one fails fast.
  fs::path gnuplot;
  if (options.render) {
    gnuplot = find_program(options.gnuplot);
    if (gnuplot.empty())
      throw OutputError(options.gnuplot == "gnuplot"
                            ? std::string("gnuplot not found: install the Debian package gnuplot-nox")
                            : "gnuplot not found at '" + options.gnuplot +
                                  "': install the Debian package gnuplot-nox");
  }

  PlotResult result;
  result.data =
      compute_plot_data(robot, feet, main, comparisons, contacts, options.selection, options.geometry);
  for (const auto& m : result.data.motions) result.labels.push_back(m.label);
  result.dir = options.output_dir.empty() ? default_plot_dir(motion) : options.output_dir;
  std::error_code ec;
  fs::create_directories(result.dir, ec);
  if (ec || !fs::is_directory(result.dir))
    throw OutputError(result.dir.string() + ": cannot create the plot folder" +
                      (ec ? ": " + ec.message() : std::string()));

  const auto files = plot_files(result.data, options.format, main.label);
  for (const auto& f : files) {
    const fs::path path = result.dir / f.name;
    write_file_atomically(path, [&](std::ostream& out) { out << f.contents; });
    if (f.name == "plot.gp")
      result.script = path;
    else
      result.data_files.push_back(path);
  }
  if (!options.render) return result;

  // Draw under temporary names, then rename each figure into place.
  const std::string prefix = ".tmp-" + std::to_string(::getpid()) + "-";
  const std::string ext = to_string(options.format);
  std::vector<std::string> names = {"joints." + ext, "torques." + ext, "zmp." + ext};
  if (result.data.geometry) names.push_back("geometry." + ext);
  const auto remove_temporaries = [&] {
    for (const auto& n : names) fs::remove(result.dir / (prefix + n), ec);
  };
  std::string errors;
  int status = 0;
  try {
    status = run_program(gnuplot, {"-e", "prefix='" + prefix + "'", "plot.gp"}, result.dir, &errors);
  } catch (...) {
    remove_temporaries();
    throw;
  }
  if (status != 0) {
    remove_temporaries();
    throw OutputError(fmt::format("gnuplot failed (exit status {}) on {}: {}", status, result.script.string(),
                                  last_line(errors)));
  }
  std::istringstream warnings(errors);
  for (std::string line; std::getline(warnings, line);)
    if (!line.empty()) spdlog::warn("gnuplot: {}", line);
  for (const auto& n : names) {
    const fs::path temporary = result.dir / (prefix + n), target = result.dir / n;
    if (!fs::is_regular_file(temporary, ec) || fs::file_size(temporary, ec) == 0) {
      remove_temporaries();
      throw OutputError(target.string() + ": gnuplot wrote no figure");
    }
  }
  for (const auto& n : names) {
    const fs::path temporary = result.dir / (prefix + n), target = result.dir / n;
    fs::rename(temporary, target, ec);
    if (ec) {
      remove_temporaries();
      throw OutputError(target.string() + ": cannot rename the figure into place: " + ec.message());
    }
    result.figures.push_back(target);
  }
  return result;
}

}  // namespace mimic::pipeline
