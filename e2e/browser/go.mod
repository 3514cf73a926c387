module github.com/toolgate/toolgate/e2e/browser

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/stretchr/testify v1.12.1
	github.com/toolgate/toolgate v0.0.0
)

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

replace github.com/toolgate/toolgate => ../../
