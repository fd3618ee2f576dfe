// Natives behind TextEncoder and TextDecoder (js/encoding.js).
#pragma once

#include <span>

#include "runtime/host_bindings.h"

namespace hostloop::runtime {

std::span<const HostFunction> EncodingFunctions();

}  // namespace hostloop::runtime
