#include "config.h"
/* placeholder: being written */
#include "validate.h"
bool gdef_validate(struct gdef *g, struct diag *d) { (void)g; (void)d; return false; }
