/** Contracts of the uploads routes: requests and answers. */
export {};
