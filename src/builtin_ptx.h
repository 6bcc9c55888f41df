/*
 * The built-in module's PTX (src/builtin.ptx, from src/builtin.cu), which
 * make writes into builtin_ptx.c: loaded by the GPU back end, and read by
 * kernel_access.h to tell what the built-in kernels do with their buffer.
 */
#ifndef CGR_BUILTIN_PTX_H
#define CGR_BUILTIN_PTX_H

extern const char builtin_ptx[];

#endif
