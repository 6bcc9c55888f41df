/* placeholder: being written by the GPU back-end helper */
#ifndef CGR_VERIFY_H
#define CGR_VERIFY_H
#endif
