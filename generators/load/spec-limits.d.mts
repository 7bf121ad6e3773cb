export declare const MAX_SPEC_FILE_BYTES: number;
export declare const MAX_SPEC_TOTAL_BYTES: number;
export declare const MAX_SPEC_FILES: number;
export declare const MAX_SPEC_DEPTH: number;
