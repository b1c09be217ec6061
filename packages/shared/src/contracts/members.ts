/** Contracts of the members routes: requests and answers. */
export {};
