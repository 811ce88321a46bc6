#ifndef FREEDOM_KEYS_CSODIUM_SHIM_H
#define FREEDOM_KEYS_CSODIUM_SHIM_H
#include <sodium.h>
#endif
