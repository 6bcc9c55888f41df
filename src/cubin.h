/*
 * Reads kernel parameter layouts from CUDA binary images, with no CUDA
 * calls: PTX text (through ptx.c), cubins (ELF) and fatbins.  The driver
 * reports each parameter of a kernel (cuFuncGetParamInfo) but not how many
 * there are (CUDA 13.0 has no call for it), and asking past the last one
 * is a failing call that compute-sanitizer reports as an API error.  So
 * the count, and the sizes where the image records them, are read here and
 * the driver is asked about exactly that many.
 *
 * Images come from users' files and from the compile cache: every read is
 * bounds-checked, and whatever is not understood (a compressed fatbin
 * entry, an attribute format never seen, a truncated or inconsistent
 * image) gives -1, "unknown", never a guess.
 *
 * What is read, as established from nvcc/ptxas 13.0 output for sm_75 to
 * sm_121 (with -G and -rdc too):
 *
 *   cubin   ELF64, little-endian, e_machine EM_CUDA (190).  Kernel SYM has
 *           a section ".nv.info.SYM" (type SHT_CUDA_INFO, 0x70000000) of
 *           attributes: u8 format, u8 id, then for format 0x04 (SVAL) a
 *           u16 length and that many bytes; formats 0x01 (NVAL), 0x02
 *           (BVAL) and 0x03 (HVAL) take two more bytes (NVAL: zero; BVAL:
 *           a byte and a zero; HVAL: a u16).  Each parameter is one SVAL of
 *           12 bytes: u32 0, u16 ordinal, u16 offset, u32 W, with id 0x17
 *           (KPARAM_INFO: the size is W >> 18) or, for kernels whose
 *           parameters take more than 4 KiB, id 0x45 (the size is W's low
 *           16 bits; its top byte holds flags on sm_100 and later).  The
 *           HVAL 0x19 (CBANK_PARAM_SIZE) is where the last parameter ends;
 *           a kernel without parameters has neither.
 *   fatbin  u32 magic 0xBA55ED50, u16 version 1, u16 header size, u64 size
 *           of the entries; each entry: u16 kind (1 PTX, 2 ELF), u16, u32
 *           header size, u64 payload size, u32 compressed size (0: not
 *           compressed), ..., u32 arch (90 for sm_90) at 28, u64 flags at
 *           40 (0x2000, 0x8000: compressed; 0x100000: an "a" target that
 *           runs on that arch only).
 */
#ifndef CGR_CUBIN_H
#define CGR_CUBIN_H

#include <stdbool.h>
#include <stddef.h>

#include "ptx.h"

/*
 * The parameters of the kernel whose symbol (the mangled name, the one
 * cuModuleGetFunction takes) is name, in the len bytes at image: PTX text
 * (it need not be NUL-terminated within len), a cubin or a fatbin.  For a
 * fatbin, the entries that the driver may load on a device of compute
 * capability sm (major * 10 + minor) are read: the cubins for exactly sm
 * when there is one, else the cubins of the same major and a lower minor
 * and the PTX for sm or lower; all of them must be read and agree.
 *
 * Returns the number of parameters, or -1 when it cannot be known from the
 * image.  When sizes is not NULL, *sizes is set to a malloc'd array of
 * that many sizes in bytes where the image records them (cubins), or to
 * NULL (PTX; no parameters; -1).
 */
long image_entry_params(const void *image, size_t len, const char *name, int sm,
			size_t **sizes);

/*
 * Every kernel of an image, for the validator (mod_check.h), which checks
 * kernel nodes against them without a GPU.  In a cubin the kernels are
 * the function symbols marked as entries (st_other bit 0x10, which ptxas
 * sets on kernels and never on device functions, -rdc or not), each with
 * its .nv.info parameters as above; in PTX, ptx_entries (ptx.h).
 */

enum image_kind { IMAGE_UNKNOWN, IMAGE_PTX, IMAGE_CUBIN, IMAGE_FATBIN };

struct image_kernel {
	char *name;                     /* the symbol, as cuModuleGetFunction takes it */
	/*
	 * In every part of the image the driver may load (a fatbin's
	 * candidates, below), and read alike from each: only then are the
	 * parameters below the driver's.
	 */
	bool everywhere;
	long nparams;                   /* -1: not known */
	/* nparams of them (size 0: not known; type "" in a cubin), or NULL */
	struct ptx_param *params;
	bool dyn_shared;                /* PTX: it uses .extern .shared memory (ptx.h) */
};

struct image_listing {
	enum image_kind kind;
	/*
	 * Every kernel the driver could load from the image is listed: a
	 * name not among them is not there.  False when part of it cannot
	 * be read (a compressed fatbin entry, a format not understood).
	 */
	bool complete;
	/* a fatbin that holds nothing a device of compute capability sm can load */
	bool no_code;
	/* a fatbin's code, for messages: "sm_80 and sm_90 cubins, compute_90 PTX" */
	char holds[160];
	struct image_kernel *v;         /* in the image's order, each name once */
	size_t n;
	struct ptx_header ptx;          /* IMAGE_PTX: its .version and .target */
};

/*
 * The kernels of the len bytes at image (PTX text need not be
 * NUL-terminated within len), into *out.  For a fatbin, the entries a
 * device of compute capability sm may load are read, as for
 * image_entry_params (sm 0: any device, every entry): a kernel is listed
 * when one of them has it, `everywhere` when all of them have it alike.
 * Never fails: what cannot be read leaves the listing incomplete (kind
 * IMAGE_UNKNOWN for what is neither PTX, a cubin nor a fatbin).
 */
void image_list(const void *image, size_t len, int sm, struct image_listing *out);
void image_listing_free(struct image_listing *l);

#endif
