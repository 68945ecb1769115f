// The system's zlib: Debian's zlib1g-dev, the macOS and iOS SDKs'. ProvisioDoctor inflates PNG
// pixel data and checks PNG chunk CRCs with it.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>
#endif
