/** The list of kinds this process serves (CoreModule.forRoot provides it; RUN_KINDS by default). */
export const RUN_KIND_LIST = Symbol('RUN_KIND_LIST');
