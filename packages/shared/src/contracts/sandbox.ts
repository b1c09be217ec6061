/** Contracts of the sandbox routes: requests and answers. */
export {};
