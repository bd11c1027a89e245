import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

// The only module that touches @vscode/webview-ui-toolkit: it registers the controls the timeline's
// markup uses (<vscode-button>, <vscode-checkbox>, <vscode-dropdown>, <vscode-option>,
// <vscode-text-field>). They take VS Code's theme from its CSS variables.
export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeCheckbox(), vsCodeDropdown(), vsCodeOption(), vsCodeTextField());
}
