// Opening a C library SessionService loads at run time from the system's library directories
// only. dlopen of a bare soname also searches the calling executable's RUNPATH (SwiftPM sets
// $ORIGIN) and LD_LIBRARY_PATH, so a file planted beside a binary would be loaded in place of the
// system's library; an absolute path is searched nowhere else. Included by the CLib* shims.
#ifndef SESSION_SERVICE_SYSTEM_LIBRARY_H
#define SESSION_SERVICE_SYSTEM_LIBRARY_H

#include <dlfcn.h>
#include <stdio.h>

/// The library `soname` from the first of the system's library directories that has it: the
/// multiarch ones of Debian and Ubuntu, then those of Fedora, Arch and Alpine. A copy the process
/// already loaded from there (FoundationNetworking links libcurl and libcrypto) is the one
/// returned. NULL when none of them has it.
static inline void *session_service_open_system_library(const char *soname) {
    static const char *const directories[] = {
        "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
        "/lib/arm-linux-gnueabihf", "/usr/lib/arm-linux-gnueabihf", "/lib/powerpc64le-linux-gnu", "/usr/lib/powerpc64le-linux-gnu",
        "/lib/s390x-linux-gnu", "/usr/lib/s390x-linux-gnu", "/lib/riscv64-linux-gnu", "/usr/lib/riscv64-linux-gnu",
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    };
    for (unsigned long index = 0; index < sizeof directories / sizeof directories[0]; index++) {
        char path[256];
        if (snprintf(path, sizeof path, "%s/%s", directories[index], soname) >= (int)sizeof path) continue;
        void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (library != NULL) return library;
    }
    return NULL;
}

#endif
