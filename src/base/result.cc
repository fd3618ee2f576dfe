#include "base/result.h"

#include <cerrno>
#include <cstring>

namespace hostloop::base {

Error Error::FromErrno(std::string_view what) { return FromErrno(what, errno); }

Error Error::FromErrno(std::string_view what, int error_number) {
  std::string message(what);
  message += ": ";
  message += std::strerror(error_number);
  return Error{error_number, std::move(message)};
}

}  // namespace hostloop::base
