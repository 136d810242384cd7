// Stand-in for the class of this name in CGSuite's CommandLineInterface.java, which
// needs the rest of CGSuite.
package org.cgsuite.core.misere.solver;

class TimeoutException extends RuntimeException {
}
