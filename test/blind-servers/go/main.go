package main

import (
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	port := flag.Int("port", 0, "port to listen on (0 = any free port)")
	flag.Parse()
	log.SetOutput(os.Stderr)
	rand.Read(jwtSecret)
	keys := seedAll()
	registerRoutes()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	type fixtures struct {
		Mutable string `json:"mutableDeploymentId"`
		Limit   string `json:"workbookLimitDeploymentId"`
		Scoped  string `json:"scopedDeploymentId"`
	}
	line := struct {
		BaseURL  string            `json:"baseUrl"`
		Token    string            `json:"token"`
		Tokens   map[string]string `json:"tokens"`
		Fixtures fixtures          `json:"fixtures"`
	}{fmt.Sprintf("http://127.0.0.1:%d", addr.Port), keys["admin"], keys, fixtures{"9001", "9003", "9002"}}
	b, _ := json.Marshal(line)
	fmt.Println(string(b))
	os.Stdout.Sync()
	srv := &http.Server{Handler: server{}, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("listening on %s (%d routes)", addr, len(routes))
	log.Fatal(srv.Serve(ln))
}
