// Automatic landmark mapping of a C3D marker set whose labels no preset matches exactly: the labels are
// compared with the shipped marker-set families (Plug-in Gait, Qualisys, Xsens, OptiTrack ...) by what
// they say rather than how they are spelled: side (L / R / Left / Right as prefix or suffix, with or
// without a separator), body-part fragment (ASI, SHO, ELB, IAS, Acromion ...), case, separators and
// Xsens' "p" prefix ignored ("L_ASI", "l.asi", "Left_ASI" and "LASI" are one marker). The family that
// resolves the most landmarks, among those resolving every required one, gives the same centroids its
// preset gives. Labels that carry no anatomical meaning (M001..M040, *1) stay an error that says so.
#pragma once

#include "mimic/mocap/clip.hpp"
#include "mimic/retarget/skeleton_mapping.hpp"

namespace mimic::retarget {

AutomaticMapping map_markers(const mocap::Clip& clip);

}  // namespace mimic::retarget
