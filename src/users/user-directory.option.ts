/** The DI token of an embedding application's `UserDirectory` class (`AppOptions.userDirectory`). */
export const USER_DIRECTORY_CLASS = Symbol('USER_DIRECTORY_CLASS');
