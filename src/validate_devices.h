/*
 * The validator's rules for files whose nodes run on several GPUs
 * (cugraphrun(5), Devices): which nodes and buffers may name a device,
 * and the driver's rules that tie work to one context, checked at the
 * line before any GPU is touched:
 *   - a conditional body runs on its conditional node's device;
 *   - a condition is set only from its own context: the kernels given
 *     its handle run on its conditional node's device;
 *   - a device-launched graph (instantiate: device_launch) runs on one
 *     device.
 * It reads the model as the main passes of validate.c leave it (names
 * resolved, every node in gdef.all_nodes) and skips what an earlier error
 * left unresolved.  gdef_validate calls validate_devices.
 *
 * Ownership: nothing is kept; what is filled in (gdef.device_of and
 * ndevices, condition.device) lives in the gdef.
 */
#ifndef CGR_VALIDATE_DEVICES_H
#define CGR_VALIDATE_DEVICES_H

#include "diag.h"
#include "model.h"

void validate_devices(struct gdef *g, struct diag *d);

/*
 * A sweep's point (sweep.h) on one device: its update path changes the
 * nodes of one executable graph in one context, and does not follow a
 * point's nodes or buffers onto other GPUs.  false after an error at the
 * first 'device' that names another device than 0.
 */
bool validate_one_device(const struct gdef *g, struct diag *d);

#endif
