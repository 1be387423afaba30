// Testing Library's waits (findBy…, waitFor) end after 1 s unless told otherwise, and a react-admin screen rendered
// in jsdom can take longer on a busy 2-core machine (its lazy code imported for the first time, MUI's styles). One
// deadline for every unit test, sized for a machine at load 10; a wait still ends as soon as its condition holds.
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 20_000 });
