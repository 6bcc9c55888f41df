#ifndef CGR_GPU_BUILD_H
#define CGR_GPU_BUILD_H
extern const char builtin_ptx[];
#endif
