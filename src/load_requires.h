/*
 * The loader's requires: section (private to load*.c): what a file needs
 * of the machine it runs on (compute capability, driver, GPUs, device
 * memory, libraries), read into the model by the top-level table
 * (load_file.c); requires.h judges it when the file runs.
 */
#ifndef CGR_LOAD_REQUIRES_H
#define CGR_LOAD_REQUIRES_H

#include "load_map.h"

/* requires: {compute_capability, driver, gpus, memory, libraries}; obj is the model. */
key_fn key_requires;

#endif
